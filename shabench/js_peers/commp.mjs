// Each named file's Filecoin piece commitment by @web3-storage/data-segment (Piece.fromPayload), a
// line each: "commP-hex padded-size CIDv1 CIDv2"; with "time" as the first argument, the seconds
// Piece.fromPayload took (the file's read not included) after them. For shabench/js_peers.py.
import { Piece } from '@web3-storage/data-segment'
import fs from 'node:fs'

const [, , mode, ...paths] = process.argv
for (const path of paths) {
  const bytes = fs.readFileSync(path)
  const start = process.hrtime.bigint()
  const piece = Piece.fromPayload(bytes)
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  const v1 = Piece.toInfo(piece).link.toString()
  const line = `${Buffer.from(piece.root).toString('hex')} ${piece.size} ${v1} ${piece.link.toString()}`
  console.log(mode === 'time' ? `${line} ${seconds}` : line)
}
