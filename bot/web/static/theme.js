// Colours: a Telegram Mini App takes Telegram's theme (themeParams, kept up to date on
// themeChanged); a Discord Activity is dark, like Discord.
const TELEGRAM_COLOURS = {
  bg_color: "--bg", text_color: "--text", hint_color: "--muted", link_color: "--link",
  button_color: "--accent", button_text_color: "--accent-text",
  secondary_bg_color: "--panel", section_bg_color: "--panel",
};

function telegramTheme(app) {
  const root = document.documentElement;
  const params = app.themeParams || {};
  for (const [name, variable] of Object.entries(TELEGRAM_COLOURS)) {
    if (params[name]) root.style.setProperty(variable, params[name]);
  }
  root.dataset.scheme = app.colorScheme === "dark" ? "dark" : "light";
}

export function applyTheme(platform) {
  const root = document.documentElement;
  const app = window.Telegram && window.Telegram.WebApp;
  if (platform === "dc") {
    root.dataset.scheme = "dark";
  } else if (app) {
    telegramTheme(app);
    if (app.onEvent) app.onEvent("themeChanged", () => telegramTheme(app));
  } else if (window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches) {
    root.dataset.scheme = "dark";
  }
}
