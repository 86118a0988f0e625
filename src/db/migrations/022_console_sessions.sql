-- Sessions of the browser console (docs/console.md): the cookie holds a random token, the table its SHA-256, so a
-- copy of the database opens no session. A session belongs to the API key it was opened with: revoking the key (or
-- deleting its customer) ends it.
CREATE TABLE IF NOT EXISTS console_sessions (
  token_hash text PRIMARY KEY,
  api_key_id int NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS console_sessions_expiry ON console_sessions (expires_at);
