/** The lead inbox's page script (dist/leads.html, bundled as staff/inboxPage.ts says). */
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { inboxClient } from './client.js';
import './inbox.css';

createRoot(document.getElementById('inbox')!).render(<App supabase={inboxClient()} />);
