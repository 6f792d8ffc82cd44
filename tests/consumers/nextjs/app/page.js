'use client';
// A client component, as a user writes it: the four APIs in the browser with the default init().
import { useEffect, useState } from 'react';
import * as sluice from 'sluice';
import { exercise } from './usage.mjs';

export default function Page() {
  const [status, setStatus] = useState('running');
  useEffect(() => {
    exercise(sluice).then(
      (result) => {
        globalThis.sluiceResult = result;
        setStatus('ok');
      },
      (error) => {
        globalThis.sluiceResult = { ok: false, error: `${error?.name}: ${error?.message}\n${error?.stack}` };
        setStatus('error');
      },
    );
  }, []);
  return <p id="status">{status}</p>;
}
