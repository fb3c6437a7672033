// The page's only way to the server: JSON over fetch, with the anonymous player token.

const TOKEN_KEY = "spades.token";

export class ApiError extends Error {
  constructor(status, detail, state) {
    super(detail);
    this.status = status;
    this.state = state || null;
  }
}

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = localStorage.getItem(TOKEN_KEY);
  if (token) headers["X-Player-Token"] = token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : `The server answered ${res.status}.`;
    throw new ApiError(res.status, detail, data && data.state);
  }
  return data;
}

export async function ensureToken() {
  if (!localStorage.getItem(TOKEN_KEY)) {
    const data = await call("POST", "/api/players");
    localStorage.setItem(TOKEN_KEY, data.token);
  }
}

export const api = {
  get: (path) => call("GET", path),
  post: (path, body) => call("POST", path, body === undefined ? {} : body),
  put: (path, body) => call("PUT", path, body),
};
