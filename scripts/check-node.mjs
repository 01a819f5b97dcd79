// Fails loudly when npm scripts run on an old Node: the project needs Node 24 (the `node` devDependency).
const major = Number(process.versions.node.split('.')[0])
if (major < 22) {
  console.error(
    `\n\x1b[31mLeadAtlas needs Node 24 (found ${process.version}).\x1b[0m\n` +
      'Run it through npm scripts (npm start, npm test), which use the Node 24 from the `node` devDependency.\n' +
      'If this still shows an old version, run `npm ci` first.\n',
  )
  process.exit(1)
}
