// Signing in: a Telegram Mini App hands its signed initData to the server; a Discord
// Activity asks the Discord client for an OAuth2 code (Embedded App SDK), the server
// exchanges it and checks the activity instance. Either way the server answers with a
// page session {token, table, seat, locale, name}.

class SignInError extends Error {
  constructor(message, needsChat = false) {
    super(message);
    this.needsChat = needsChat;
  }
}

async function post(path, body) {
  const response = await fetch(path, {method: "POST", headers: {"Content-Type":
    "application/json"}, body: JSON.stringify(body)});
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new SignInError(data.text || data.error || String(response.status));
  return data;
}

function telegramInitData() {
  const app = window.Telegram && window.Telegram.WebApp;
  if (app && app.initData) return app.initData;
  // launched without Telegram's script: the launch parameters in the URL's fragment
  const fragment = new URLSearchParams(location.hash.slice(1));
  return fragment.get("tgWebAppData") || "";
}

// Without a table (the bot's Main Mini App) the server answers with the person's tables
// ({choose: [{table, title}], text}); the page shows them and signs in again with the one
// tapped (signInTo).
async function telegram(table = null) {
  const initData = telegramInitData();
  if (!initData) throw new SignInError("no initData", true);
  const app = window.Telegram && window.Telegram.WebApp;
  if (app) {
    app.ready();
    app.expand();
  }
  let replay = false;
  if (table === null) {
    const params = new URLSearchParams(location.search);
    const named = params.get("t");
    table = named && /^\d+$/.test(named) ? Number(named) : null;
    const replayed = params.get("r");  // a replay button: ?r=<table>
    if (table === null && replayed && /^\d+$/.test(replayed)) {
      table = Number(replayed);
      replay = true;
    }
  }
  return post("./api/session/telegram", {init_data: initData, table, replay});
}

let activity = null;

/** The Discord Embedded App SDK of a signed-in Activity (null elsewhere). */
export function discordActivity() {
  return activity;
}

async function discord() {
  const params = new URLSearchParams(location.search);
  if (!params.get("frame_id")) throw new SignInError("not in Discord", true);
  const config = await (await fetch("./api/config")).json();
  if (!config.discord_client_id) throw new SignInError("Discord sign-in is not set up");
  const {DiscordSDK} = await import("./vendor/discord-sdk.js");
  const sdk = new DiscordSDK(config.discord_client_id);
  await sdk.ready();
  const {code} = await sdk.commands.authorize({client_id: config.discord_client_id,
    response_type: "code", state: "", prompt: "none", scope: ["identify"]});
  const {access_token: accessToken} = await post("./api/discord/token", {code});
  await sdk.commands.authenticate({access_token: accessToken});
  activity = sdk;
  return post("./api/session/discord", {access_token: accessToken,
    instance_id: sdk.instanceId});
}

export async function signIn(platform) {
  return platform === "dc" ? discord() : telegram();
}

export async function signInTo(table) {
  return telegram(table);
}
