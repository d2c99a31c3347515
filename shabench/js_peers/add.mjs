// What ipfs-unixfs-importer adds of the paths named, directories walked as `ipfs add -r` walks them
// (entries in the order of their names, hidden names left out unless "hidden": true; regular files
// and directories only): a `CID PATH` line for each entry the importer yields, PATH as it names it
// ("" for the wrapping directory). Options as a JSON object: profile, wrap, hidden. For
// shabench/js_peers.py.
import { importer } from 'ipfs-unixfs-importer'
import { MemoryBlockstore } from 'blockstore-core/memory'
import fs from 'node:fs'
import nodePath from 'node:path'

const [, , json, ...paths] = process.argv
const o = JSON.parse(json)

function * walk (path, name) {
  if (fs.lstatSync(path).isDirectory()) {
    const names = fs.readdirSync(path).filter(n => o.hidden || !n.startsWith('.'))
    names.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    if (names.length === 0) yield { path: name }
    for (const n of names) yield * walk(nodePath.join(path, n), `${name}/${n}`)
  } else {
    yield { path: name, content: fs.createReadStream(path) }
  }
}

function * entries () {
  for (const path of paths) yield * walk(path, nodePath.basename(nodePath.resolve(path)))
}

const options = { profile: o.profile, wrapWithDirectory: o.wrap === true }
for await (const entry of importer(entries(), new MemoryBlockstore(), options)) {
  console.log(`${entry.cid.toString()} ${entry.path}`)
}
