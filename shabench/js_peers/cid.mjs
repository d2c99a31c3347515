// The CID ipfs-unixfs-importer gives each file named, one line each, with the options of a JSON
// object (profile, chunk, links, raw, version: IPIP-499's profile and the parameters that override
// it); with "time": true, the importer's own seconds after the CID (the reading included, Node's
// start-up not). For shabench/js_peers.py.
import { importer } from 'ipfs-unixfs-importer'
import { fixedSize } from 'ipfs-unixfs-importer/chunker'
import { balanced } from 'ipfs-unixfs-importer/layout'
import { MemoryBlockstore } from 'blockstore-core/memory'
import fs from 'node:fs'

const [, , json, ...paths] = process.argv
const o = JSON.parse(json)
const options = { profile: o.profile }
if (o.chunk !== undefined) options.chunker = fixedSize({ chunkSize: o.chunk })
if (o.links !== undefined) options.layout = balanced({ maxChildrenPerNode: o.links })
if (o.raw !== undefined) options.rawLeaves = o.raw
if (o.version !== undefined) options.cidVersion = o.version
for (const path of paths) {
  const start = process.hrtime.bigint()
  let last
  for await (const entry of importer({ content: fs.createReadStream(path) }, new MemoryBlockstore(), options)) {
    last = entry
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  console.log(o.time ? `${last.cid.toString()} ${seconds}` : last.cid.toString())
}
