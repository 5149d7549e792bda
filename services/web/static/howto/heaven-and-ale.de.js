// So spielst du Heaven & Ale (mit dem Bierkutscher) auf Taproom: die deutsche Fassung von heaven-and-ale.js
// (gleiche Blöcke; die Begriffe folgen der eggertspiele-Ausgabe, siehe domain/heaven_and_ale/GLOSSARY.md).
import en from "./heaven-and-ale.js";

const COLOUR = { wood: "Holz", yeast: "Hefe", hops: "Hopfen", water: "Wasser", barley: "Gerste" };

export default {
  game: "heaven-and-ale",
  title: "Heaven & Ale mit dem Bierkutscher",
  tagline: "Bepflanze einen Klostergarten mit Rohstoffen, ernte im richtigen Moment und braue das beste Bier.",
  glance: [
    ["Spieler", "2 bis 4"],
    ["Dauer", "3 Runden zu zweit, 4 zu dritt, 6 zu viert"],
    ["In jedem Zug", "ziehst du deine Figur auf dem Rundlauf vor und nutzt, was das Feld bietet"],
    ["Es gewinnt", "wer alle fünf Rohstoffe auf der Produktionsleiste weit nach vorn bringt und Fässer sammelt"],
  ],
  sections: [
    {
      id: "setup",
      title: "Aufbau auf einen Blick",
      blocks: [
        { p: "Du besitzt einen Klostergarten mit zwei Seiten: 15 Felder auf der Sonnenseite, 15 auf der "
          + "Schattenseite und 7 Scheunenfelder dazwischen. Daneben liegt deine Produktionsleiste mit den Zahlen 1 "
          + "bis 20." },
        { list: [
          "25 Dukaten (Münzen). Das Geld aller ist offen.",
          "Fünf Rohstoffmarker (Holz, Hefe, Hopfen, Wasser, Gerste) am Anfang deiner Produktionsleiste, darunter "
            + "dein Braumeister.",
          "Fünf Privilegkarten auf der Hand.",
          "Deine Figur im Startbereich des Rundlaufs. Der Startspieler wird ausgelost; die anderen wählen ein "
            + "Startfeld und nehmen seine kleine Belohnung: 2 Dukaten, einen Braumeister-Schritt oder zwei Schritte "
            + "für einen Rohstoff.",
        ] },
        { p: "Der Spielplan zeigt einen Rundlauf aus 27 Aktionsfeldern um den Startbereich, mit Rohstoffplättchen, "
          + "Mönchsplättchen, Wertungsscheiben und Fässern." },
      ],
    },
    {
      id: "turn",
      title: "Dein Zug",
      blocks: [
        { steps: [
          "Ziehe deine Figur im Uhrzeigersinn beliebig viele Felder vor. Du kannst nie zurück oder stehen bleiben, "
            + "und du darfst nur dort halten, wo du die Aktion auch ausführen kannst.",
          "Führe die Aktion des Feldes aus, auf dem du hältst (siehe unten).",
          "Dann ist der Nächste dran. Wer am weitesten hinten steht, ist oft mehrmals hintereinander am Zug: Der "
            + "Rundlauf ist ein Rennen, in dem jeder Schritt nach vorn eine ausgelassene Gelegenheit ist.",
        ] },
        { p: "Ziehst du in den Startbereich, endet deine Runde: Wähle ein freies Startfeld und nimm seine "
          + "Belohnung. Sind alle dort, endet die Runde, neue Plättchen und Scheiben werden ausgelegt, und wer das "
          + "Startspieler-Feld genommen hat, beginnt die nächste Runde." },
      ],
    },
    {
      id: "actions",
      title: "Die Aktionen",
      blocks: [
        { terms: [
          ["Rohstoffplättchen", "Kaufe ein oder mehrere Plättchen des Feldes. Auf der Schattenseite kostet ein "
            + "Plättchen seine Zahl (1 bis 5) in Dukaten, auf der Sonnenseite das Doppelte."],
          ["Mönchsplättchen", "Kaufe einen oder mehrere Mönche zum aufgedruckten Preis des Feldes (4, 3, 2 oder 1), "
            + "auf der Sonnenseite doppelt."],
          ["Wertungsscheibe (A, B, C oder A/B/C)", "Nimm die Scheibe und lege sie auf ein freies Wertungsfeld "
            + "deines Gartens. Damit erntest du Plättchen: siehe Wertung."],
          ["Fässer", "Nimm jedes Fass, dessen Ziel du erreicht hast (ein großes, wenn noch eines da ist, sonst das "
            + "kleine)."],
        ] },
        { p: "Ein geerntetes Plättchen bringt je nach Lage:" },
        { list: [
          "Auf der Schattenseite: so viele Dukaten, wie seine Zahl zeigt. Geld für weitere Plättchen.",
          "Auf der Sonnenseite: Der Marker seines Rohstoffs rückt so viele Schritte vor. Punkte am Ende.",
        ] },
        { p: "Scheunen. Sind alle sechs Felder um ein Scheunenfeld belegt, zählst du die Zahlen der "
          + "Rohstoffplättchen ringsum zusammen. Eine kleine Summe bringt deinen Braumeister weit voran (0–7: 6 "
          + "Schritte; 8–11: 3; 12–17: 1; 18–23: 1; ab 24: keiner) und eine schwache Scheune; eine große Summe "
          + "bringt eine Scheune, die bis zu 4 ihrer Nachbarn auf einmal erntet." },
        { p: "Privilegien. Deine 10 Wertungsfelder bilden 5 Paare. Belegst du beide Felder eines Paares, darfst du "
          + "dort eine Privilegkarte anlegen: 12 Dukaten, 5 Braumeister-Schritte, 1 Punkt pro Fass am Ende, "
          + "Schritte für deinen schwächsten Rohstoff oder Schritte für eine Farbe. Knapp bei Kasse? Jederzeit in "
          + "deinem Zug kannst du eine ungenutzte Privilegkarte für 3 Dukaten abgeben." },
      ],
    },
    {
      id: "scoring",
      title: "Wertung",
      blocks: [
        { terms: [
          ["Scheibe A", "Nenne eine Zahl von 1 bis 5: Jedes Rohstoffplättchen mit dieser Zahl wird geerntet."],
          ["Scheibe B", "Wähle eine Mönchsart: Jeder Mönch dieser Art erntet jedes angrenzende Plättchen (ein "
            + "angrenzender Mönch bringt stattdessen einen Braumeister-Schritt)."],
          ["Scheibe C", "Wähle eine Rohstofffarbe: Jedes Plättchen dieser Farbe wird geerntet."],
          ["Scheibe A/B/C", "Eine beliebige der drei, auf einem freien Feld."],
        ] },
        { p: "Jedes Wertungsfeld nimmt für die ganze Partie eine Scheibe auf, und pro Runde gibt es nur wenige "
          + "Scheiben: Plane, welche Ernte du willst, bevor jemand anderes die Scheibe nimmt." },
        { example: {
          title: "Rechenbeispiel: eine Scheibe",
          lines: [
            "Anna nimmt Scheibe A und nennt die 3.",
            "Sie hat einen Hopfen 3 auf der Sonnenseite und ein Wasser 3 und ein Holz 3 auf der Schattenseite.",
            "Sonne: Ihr Hopfenmarker rückt 3 Schritte vor. Schatten: Sie nimmt 3 + 3 = 6 Dukaten.",
            "Die Scheibe vervollständigt außerdem eines ihrer Privilegpaare, also legt sie die 12-Dukaten-Karte: "
              + "insgesamt 18 Dukaten in diesem Zug.",
          ],
          total: "Hopfen +3 Schritte, +18 Dukaten.",
        } },
      ],
    },
    {
      id: "end",
      title: "Spielende",
      blocks: [
        { p: "Das Spiel endet, wenn in der letzten Runde die letzte Figur den Startbereich erreicht. Dann rechnet "
          + "die Seite alle Punkte aus:" },
        { steps: [
          "Die Position deines Braumeisters bestimmt zwei Zahlen: einen Tauschkurs und einen Wert pro Schritt.",
          "Tausch: Zu diesem Kurs bringen Schritte deiner stärksten Rohstoffe deinen schwächsten voran (das "
            + "erledigt die Seite für dich, soweit es hilft). Danach kaufen je 10 übrige Dukaten einen weiteren "
            + "Schritt für den schwächsten.",
          "Zahl deines schwächsten Rohstoffs × Wert = deine Braupunkte. Steht ein Rohstoff noch vor Feld 1, ergibt "
            + "das 0!",
          "Dazu 4 Punkte pro großem Fass, 2 pro kleinem Fass und 1 Punkt, wenn du das Startspieler-Feld hältst.",
        ] },
        { table: {
          head: ["Braumeister auf", "Tauschkurs", "Punkte pro Schritt"],
          rows: [["unter 1", "5 : 1", "2"], ["1–4", "4 : 1", "3"], ["5–8", "3 : 1", "3"], ["9–11", "3 : 1", "4"],
            ["12–14", "2 : 1", "4"], ["15–17", "2 : 1", "5"], ["18–19", "2 : 1", "6"], ["20", "1 : 1", "6"]],
        } },
        { example: {
          title: "Rechenbeispiel: Schlusswertung",
          lines: [
            "Bens Braumeister steht auf 10: Tausch 3 : 1, 4 Punkte pro Schritt.",
            "Nach dem Tausch ist sein schwächster Rohstoff Gerste auf 9: 9 × 4 = 36.",
            "Er hat 2 große Fässer und 1 kleines: 4 + 4 + 2 = 10.",
            "Er steht auf dem Startspieler-Feld: +1.",
          ],
          total: "Ben erhält 36 + 10 + 1 = 47 Punkte.",
        } },
        { p: "Die Lehre: Deine Wertung ist nur so gut wie dein schwächster Rohstoff. Fünf Marker auf 9 schlagen "
          + "vier auf 15 und einen auf 3." },
      ],
    },
    {
      id: "expansion",
      title: "Mit dem Bierkutscher",
      blocks: [
        { p: "Schalte die Erweiterung beim Anlegen einer Partie ein. Jeder erhält einen Lieferplan: einen Weg von "
          + "deinem Kloster vorbei an drei Wirtshäusern, einen Karren und ein Lager für Bierfässer und Heuballen "
          + "(zu Beginn 1 Bierfass und 1 Heuballen)." },
        { list: [
          "In jeder Runde liegen 4 Bierfässer und 4 Heuballen auf Feldern des Rundlaufs, und der Kutscherwürfel "
            + "liegt auf einem Feld.",
          "Hältst du auf einem Feld, darfst du seine übliche Aktion ausführen, seine Bierfässer und Heuballen "
            + "nehmen und den Würfel nutzen, in dieser Reihenfolge; mindestens eines davon musst du tun. Ein Feld, "
            + "auf dem nur Bierfässer liegen, ist jetzt ein erlaubter Halt.",
          "Jeder Lagerplatz fasst ein Teil. Ein zusätzlicher Mietplatz kostet 4 Dukaten pro Teil.",
          "Der Würfel zieht deinen Karren so viele Schritte. Beim Verlassen des Klosters lädst du Bierfässer, pro "
            + "Fass einen Heuballen als Futter für die Pferde. An den ersten beiden Wirtshäusern lieferst du genau "
            + "ein Bierfass ab, am dritten alle übrigen.",
          "Deine 7 Lagerplättchen liegen zu Beginn auf deinen Scheunenfeldern. Umschließt du ein Scheunenfeld, wird "
            + "sein Plättchen frei: Nutze die Rückseite als weiteren Lagerplatz oder die Vorderseite: ein Bierfass "
            + "und ein Heuballen, ein stärkerer Karren (+2 oder +3 auf jeden Wurf), ein besseres Wirtshaus (7 oder "
            + "8 Punkte pro Bierfass) oder ein zusätzlicher Karrenzug (3 oder 4 Schritte).",
        ] },
        { example: {
          title: "Rechenbeispiel: Bierfässer am Ende",
          lines: [
            "Clara hat 3 Bierfässer an das erste Wirtshaus geliefert (je 6 Punkte) und 2 an das zweite (je 4): 18 + "
              + "8 = 26.",
            "Im Lager hat sie noch 3 Bierfässer: je einen halben Punkt, 1½. (Bierfässer auf dem Karren zählen, was "
              + "ihr Platz auf dem Weg zeigt, oft nichts.)",
          ],
          total: "Clara erhält zusätzlich 27½ Punkte.",
        } },
        { p: "Ein neues Fassziel verlangt insgesamt 3 gelieferte Bierfässer." },
      ],
    },
  ],
  choices: {
    intro: "Wo die gedruckten Regeln Spielraum lassen, spielt Taproom es so.",
    rows: [
      ["Wer beginnt", "Wird ausgelost."],
      ["Erreichbare Felder", "Auf einem Rohstoff- oder Mönchsfeld darfst du nur halten, wenn ein Plättchen dort auf "
        + "ein freies Feld passt und du es bezahlen kannst, die 3 Dukaten jeder Privilegkarte eingerechnet, die du "
        + "noch abgeben könntest."],
      ["Die Zahl bei Scheibe A", "Du darfst jede Zahl von 1 bis 5 nennen, brauchst aber mindestens ein "
        + "Rohstoffplättchen, um das Feld zu nutzen."],
      ["Zwei ausgelöste Mönche nebeneinander", "Jeder bringt deinen Braumeister für den anderen einen Schritt "
        + "voran; weiter setzt sich nichts fort."],
      ["Braumeister über 20", "Überzählige Schritte verfallen. Rohstoffmarker über 20 bringen stattdessen 1 Dukaten "
        + "pro Schritt."],
      ["Das Scheiben-Privileg", "Zählt jede Scheibe in deinem Garten, die neue eingeschlossen."],
      ["Tausch am Ende", "Erledigt die Seite für dich, so wie es am meisten Punkte bringt; danach kaufen 10 Dukaten "
        + "einen Schritt für deinen schwächsten Rohstoff."],
      ["Eine Privilegkarte abgeben", "Bei jeder Entscheidung in deinem eigenen Zug, nie im Zug eines anderen."],
      ["Eine Scheune mit nur einer möglichen Wahl", "Wird für dich ausgewertet."],
      ["Ein Paar wird fertig, aber keine Privilegkarte ist übrig", "Es passiert nichts."],
      ["Der Kutscherwürfel, wenn alle ihn übergangen haben", "Er wird am Ende des Zuges dessen gewürfelt, der als "
        + "Letzter an ihm vorbeizog, und liegt dann ein Feld vor der vordersten Figur."],
      ["Der Mietplatz", "Darf jederzeit genutzt werden, nicht erst, wenn die anderen Plätze voll sind."],
      ["Welches gelagerte Teil zuerst geht", "Erst die normalen Plätze, zuletzt der Mietplatz."],
    ],
  },
  tutorial: { ...en.tutorial, length: "2 Runden" },
  coach: {
    intro: "Du spielst Heaven & Ale gegen einen Bot, in einer kurzen Partie. Bei jeder Entscheidung erklärt der "
      + "Coach, was du wählst, und schlägt einen guten Zug vor.",
    decisions: {
      Move: "Wähle, wie weit du ziehst. Kurz zu halten lässt dir spätere Felder offen; ein großer Sprung schnappt "
        + "dem Bot ein Plättchen oder eine Scheibe weg.",
      EnterStartingArea: "Der Startbereich beendet deine Runde. Wähle ein Startfeld: Das Startspieler-Feld lässt "
        + "dich die nächste Runde beginnen und ist am Ende 1 Punkt wert.",
      BuyTile: "Wähle ein Plättchen und ein Feld. Plättchen im Schatten bringen beim Ernten Dukaten; Plättchen in "
        + "der Sonne ziehen deine Rohstoffmarker vor. Ein Scheunenfeld mit kleinen Zahlen zu umschließen bringt "
        + "deinen Braumeister voran.",
      EndBuying: "Du kannst hier mit dem Kaufen aufhören und deine Dukaten behalten.",
      TakeDisc: "Wähle, wohin die Scheibe kommt. Zähle, was jede Wahl erntet: Die sonnigen Plättchen ziehen deine "
        + "Marker vor, die schattigen bringen Dukaten.",
      ClaimBarrels: "Nimm die Fässer, deren Ziele du erfüllt hast.",
      ChooseShedTiles: "Deine neue Scheune erntet einige ihrer Nachbarn: Wähle die wertvollsten.",
      PlacePrivilege: "Du hast ein Paar vervollständigt: Lege jetzt eine Privilegkarte für ihre Belohnung, sonst "
        + "ist sie für dieses Paar verloren.",
      DeclinePrivilege: "Du kannst deine Karten für ein späteres Paar aufheben.",
      UseEmergencyCoin: "Knapp bei Kasse? Gib eine nicht gelegte Privilegkarte für 3 Dukaten ab.",
      PlaceStorageTile: "Verteile deine Lagerplättchen auf die Scheunenfelder; jedes wird nützlich, wenn seine "
        + "Scheune umschlossen ist.",
      ResolveStorageTile: "Wähle, wie du das Lagerplättchen der eben umschlossenen Scheune nutzt.",
      TakeGoods: "Nimm Bierfässer und Heuballen in dein Lager.",
      UseCarterDie: "Ziehe deinen Karren um den Würfelwert: Lade am Kloster Bierfässer (je einen Heuballen) und "
        + "liefere sie an den Wirtshäusern ab.",
      Pass: "Du kannst den Rest dieses Feldes auslassen.",
    },
    moves: {
      Move: (c, view) => `Ziehe auf Feld ${c.space} des Rundlaufs${spaceKind(view?.track?.[c.space])}.`,
      EnterStartingArea: (c) => `Ziehe in den Startbereich auf das Feld „${SLOT[c.slot] || c.slot}“`
        + `${c.colour ? ` (${COLOUR[c.colour] || c.colour})` : ""}.`,
      BuyTile: (c) => `Kaufe ${tileName(c.tile)} und lege es auf die `
        + `${c.spot?.[0] === "S" ? "Sonnenseite" : "Schattenseite"}.`,
      EndBuying: () => "Höre hier mit dem Kaufen auf.",
      TakeDisc: (c) => `Lege die Scheibe auf ${discSpot(c.spot)}${c.number ? ` und nenne die ${c.number}` : ""}.`,
      ClaimBarrels: () => "Nimm deine Fässer.",
      ChooseShedTiles: (c) => `Lass die Scheune ${c.spots?.length ? c.spots.join(", ") : "nichts"} ernten.`,
      PlacePrivilege: (c) => `Lege deine Privilegkarte „${PRIVILEGE[c.card] || c.card}“`
        + `${c.colour ? ` für ${COLOUR[c.colour] || c.colour}` : ""}.`,
      DeclinePrivilege: () => "Hebe deine Privilegkarten für später auf.",
      UseEmergencyCoin: (c) => `Gib deine Karte „${PRIVILEGE[c.card] || c.card}“ für 3 Dukaten ab.`,
      PlaceStorageTile: () => "Lege dein nächstes Lagerplättchen.",
      ResolveStorageTile: (c) => (c.side === "back"
        ? "Nutze die Rückseite des Lagerplättchens als zusätzlichen Lagerplatz."
        : "Nutze die Vorderseite des Lagerplättchens."),
      TakeGoods: (c) => `Nimm ${c.kegs} ${c.kegs === 1 ? "Bierfass" : "Bierfässer"} und ${c.bales} Heuballen.`,
      UseCarterDie: (c) => `Nutze den Kutscherwürfel`
        + `${c.load ? ` und lade ${c.load} ${c.load === 1 ? "Bierfass" : "Bierfässer"}` : ""}.`,
      Pass: () => "Lass den Rest dieses Feldes aus.",
    },
    firstTurns: [
      "Kaufe anfangs billige Plättchen für die Schattenseite: Sie bringen bei jeder Ernte ihre Zahl in Dukaten zurück.",
      "Lege Plättchen mit derselben Zahl oder derselben Farbe so, dass eine Scheibe sie zusammen ernten kann.",
      "Behalte deinen schwächsten Rohstoff im Blick: Am Ende bestimmt er allein deine Braupunkte.",
    ],
  },
};

const SLOT = { first: "Startspieler", ducats: "2 Dukaten", brewmaster: "Braumeister", resource: "Rohstoff" };
const PRIVILEGE = { ducats: "12 Dukaten", brewmaster: "Braumeister", barrels: "Fässer", discs: "Scheiben",
  resource: "Farbe" };

function spaceKind(space) {
  if (!space) return "";
  if (space.kind === "resource") return ` (Rohstoffplättchen: ${space.tiles.map(tileShort).join(", ")})`;
  if (space.kind === "monk") return ` (Mönche für ${space.monk_cost} Dukaten)`;
  if (space.kind === "barrel") return " (Fässer)";
  if (space.kind === "start") return "";
  return ` (Wertungsscheibe ${space.kind === "ABC" ? "A/B/C" : space.kind})`;
}

function tileShort(tile) {
  const [colour, number] = String(tile).split("-");
  return colour === "monk" ? `Mönch ${number}` : `${COLOUR[colour] || colour} ${number}`;
}

function tileName(tile) {
  const [colour, number] = String(tile).split("-");
  if (colour === "monk") return `ein Mönchsplättchen vom Typ ${number}`;
  return number ? `das Plättchen ${COLOUR[colour] || colour} ${number}` : `ein ${colour.replace(/_/g, " ")}`;
}

function discSpot(spot) {
  if (spot === "x") return "das Zahlenfeld (A)";
  if (COLOUR[spot]) return `das Feld ${COLOUR[spot]} (C)`;
  return `das Feld der Mönchsart ${String(spot).replace(/\D/g, "")} (B)`;
}
