/**
 * WAV files of mono 8-bit PCM (a sample of 128 is silence), the simplest real audio the upload's sniffing and ffmpeg
 * accept: the seed's demo sounds and the tests' tracks.
 */
export function wavFile(samples: Uint8Array, rate = 8000) {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16); // the format chunk's size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // bytes a second: one a sample
  header.writeUInt16LE(1, 32); // bytes a frame
  header.writeUInt16LE(8, 34); // bits a sample
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/** A tone of a few seconds (mono, 8 kHz) that fades in and out, so it sounds like a note, not a beep. */
export function toneWav(frequency: number, seconds = 4) {
  const rate = 8000;
  const samples = Buffer.alloc(rate * seconds);
  for (let i = 0; i < samples.length; i++) {
    const t = i / rate;
    const envelope = Math.min(1, t / 0.3) * Math.min(1, (seconds - t) / 1.2);
    const wave = Math.sin(2 * Math.PI * frequency * t) * 0.7 + Math.sin(2 * Math.PI * frequency * 2 * t) * 0.2;
    samples[i] = 128 + Math.round(90 * envelope * wave);
  }
  return wavFile(samples, rate);
}
