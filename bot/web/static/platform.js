// Telegram's Mini App feel (its Mini App guidelines: core.telegram.org, bots/webapps): haptics on a
// selection, a refusal and the turn's start; the BackButton closes an open panel; vertical
// swipes (which would close the Mini App) are off while a card is dragged. Elsewhere
// (Discord, a browser) every function does nothing.

function telegram() {
  return window.Telegram && window.Telegram.WebApp;
}

// kind: "select" (a card tapped), "refused" (the server refused a press), "turn" (the
// person's turn started).
export function haptic(kind) {
  const feedback = telegram() && telegram().HapticFeedback;
  if (!feedback) return;
  if (kind === "select") feedback.selectionChanged();
  else feedback.notificationOccurred(kind === "refused" ? "error" : "success");
}

let backHandler = null;

// The BackButton shows while a panel is open and closes it.
export function backButton(open, close) {
  const button = telegram() && telegram().BackButton;
  if (!button) return;
  if (!backHandler) {
    backHandler = () => close();
    button.onClick(backHandler);
  }
  if (open) button.show(); else button.hide();
}

// Dragging a card sideways must not close the Mini App by a vertical swipe.
export function verticalSwipes(allowed) {
  const app = telegram();
  if (!app) return;
  const call = allowed ? app.enableVerticalSwipes : app.disableVerticalSwipes;
  if (call) call.call(app);
}
