// Who is in the Discord Activity: the people the Discord client says are connected to
// this activity instance (the Embedded App SDK's getInstanceConnectedParticipants and its
// ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE event), in a list of their own above the table
// (outside #app, which every screen redraws). A Telegram page shows none.

function nameOf(person) {
  return person.nickname || person.global_name || person.username || "?";
}

/** Shows `people` (the SDK's participants) under the heading `title`. */
export function showParticipants(people, title) {
  let box = document.getElementById("participants");
  if (!box) {
    box = document.createElement("section");
    box.id = "participants";
    box.setAttribute("aria-labelledby", "participants-title");
    document.body.insertBefore(box, document.getElementById("app"));
  }
  const heading = document.createElement("h2");
  heading.id = "participants-title";
  heading.textContent = `${title} (${people.length})`;
  const list = document.createElement("ul");
  for (const person of people) {
    const item = document.createElement("li");
    item.textContent = nameOf(person);
    item.dataset.user = String(person.id);
    list.appendChild(item);
  }
  box.replaceChildren(heading, list);
}

/** Follows the activity's participants through `sdk`, calling `show(people)` now and on
 * every change; an SDK without them (an older Discord client) shows nothing. */
export async function followParticipants(sdk, show) {
  try {
    sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE",
      (event) => show(event.participants || []));
    const {participants} = await sdk.commands.getInstanceConnectedParticipants();
    show(participants || []);
  } catch {
    // not offered by this client: the page works without the list
  }
}
