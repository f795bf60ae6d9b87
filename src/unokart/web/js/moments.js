// The moments a state brought (state.js momentsOf), shown: each moves (motion.js), sounds
// (sound.js) and, for UNO, catches, challenges and winners, is announced (announce.js).
import { describeEvent } from "./events.js";
import { addToNotice, cardToPile, drawTo, floatReaction, itemOnSeats, shellToTarget, showItemNotice, turnArrow } from "./motion.js";
import { reactionIcon } from "./views/chat.js";
import { playSound } from "./sound.js";
import { announce, keepClearOfNotice } from "./announce.js";

/**
 * ``scene``: s (the state), names (as shown), gameView (seatNode), screen, before (the hand's
 * card rects before the state), fresh (the hand's new card elements), turned (the direction changed).
 */
export function playMoments(moments, scene) {
  const { s, names, gameView, screen } = scene;
  const seatNode = (seat) => gameView.seatNode(seat);
  let drawsForMe = 0;
  for (const moment of moments) {
    if (moment.sound) playSound(moment.sound);
    if (moment.kind === "play") {
      const own = moment.seat === s.seat ? scene.before?.get(moment.card) : null;
      cardToPile(own ?? seatNode(moment.seat)?.getBoundingClientRect());
    } else if (moment.kind === "draw") {
      const mine = moment.seat === s.seat;
      drawTo(moment.seat, seatNode(moment.seat), moment.count, mine ? scene.fresh.slice(drawsForMe) : []);
      if (mine) drawsForMe += moment.count;
    } else if (moment.kind === "item") {
      showItemNotice(screen, moment, names, s.seat);
      const n = names.length;
      const others = Array.from({ length: n - 1 }, (_, i) => (moment.seat + 1 + i) % n);
      itemOnSeats(moment, seatNode, others);
    } else if (moment.kind === "shell") {
      addToNotice(describeEvent(moment.event, names, s.seat) || [], screen);
      shellToTarget(moment, seatNode);
    } else if (moment.kind === "announce") {
      announce(moment, names);
    } else if (moment.kind === "react") {
      floatReaction(seatNode(moment.seat), reactionIcon(moment.emoji, 40), moment.seat);
    }
  }
  if (scene.turned) turnArrow();
  keepClearOfNotice(); // a notice placed after this state's banner
}
