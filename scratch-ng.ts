import { execa } from 'execa';
import { readFileSync, mkdirSync } from 'node:fs';
import { startFleet } from './test/fleet/index.js';
const fleet = await startFleet({ scale: { timeScale: 1 / 150 } });
try {
  mkdirSync('/tmp/scratch', { recursive: true });
  const env = { ...process.env, ...fleet.env };
  const r = await execa('docker', ['buildx', 'bake', '--builder', 'forge', '--push', '--metadata-file', '/tmp/scratch/md.json', '--progress=plain', 'bitsandbytes-wheel'], { env, cwd: fleet.files.repoDir ?? '/tmp/scratch', reject: false });
  console.log('bake', r.exitCode, r.stderr.split('\n').filter(l=>/sccache/.test(l)).join('\n'));
  console.log(Object.keys(fleet.files), fleet.env);
  console.log(readFileSync(fleet.services.nginxLogPath, 'utf8').split('\n').slice(0, 3).join('\n'));
  console.log(fleet.nodes.map(n => n.name + ' ' + n.address).join(', '));
} finally {
  await fleet.stop();
}
