// So spielst du Die Tavernen im Tiefen Thal (Modul 1) auf Taproom: die deutsche Fassung von tiefenthal.js (gleiche
// Blöcke; die Begriffe folgen der Schmidt-Spiele-Ausgabe, siehe domain/tiefenthal/GLOSSARY.md).
import en from "./tiefenthal.js";
import { t } from "../js/i18n.js";

export default {
  game: "tiefenthal",
  title: "Die Tavernen im Tiefen Thal (Modul 1)",
  tagline: "Führe eine Dorftaverne: Ziehe deine Gäste und dein Personal, wähle Würfel, bediene und investiere die "
    + "Einnahmen.",
  glance: [
    ["Spieler", "2 bis 4"],
    ["Dauer", "8 Runden (Abende)"],
    ["In jeder Runde", "füllt dein Stapel deine Taverne, du wählst 4 Würfel und legst sie, um Taler und Bier zu "
      + "verdienen"],
    ["Es gewinnt", "wer die meisten Siegpunkte auf seinen Karten hat: Adlige sind je 10 wert"],
  ],
  sections: [
    {
      id: "setup",
      title: "Aufbau auf einen Blick",
      blocks: [
        { p: "Dein Tavernentableau besteht aus zehn Plättchen, jedes mit einer einfachen Seite und einer besseren, "
          + "die du kaufen kannst: Tische, Kellnerin, Kasse, Mönch, Tellerwäscher, Tresor, Wirt, Bierfass, "
          + "Lieferant und Bierlager." },
        { list: [
          "Dein Stapel: 7 Stammgäste (sie zahlen 1 oder 2 Taler), 1 Kellnerin, 1 Tisch und 1 Lieferant, gemischt.",
          "Zu Beginn 3 Tische in deiner Taverne.",
          "Tresor, Bierlager und dein Klostermarker stehen auf 0.",
          "In der Mitte: die Tavernenkarten zum Kauf, ein offener Stapel 3-Bier-Gäste, 4 weitere Gäste in der "
            + "Auslage und die Adligen.",
        ] },
      ],
    },
    {
      id: "turn",
      title: "Eine Runde, Phase für Phase",
      blocks: [
        { p: "Alle spielen jede Phase gleichzeitig, außer D und F, die reihum ab dem Startspieler laufen. Die Seite "
          + "führt dich weiter, sobald nichts mehr zu entscheiden ist." },
        { steps: [
          "A — Der nächste Abend beginnt. Der Mond rückt auf der Rundenleiste vor; manche Felder geben allen einen "
            + "Bonus (eine Karte, einen Klosterschritt, eine kostenlose Aufwertung).",
          "B — Die Taverne füllt sich. Karten kommen nacheinander von deinem Stapel: Gäste setzen sich an freie "
            + "Tische, Personal kommt neben sein Plättchen. Du hörst auf, wenn jeder Tisch besetzt ist. Alle "
            + "Adligen teilen sich einen Tisch.",
          "C — Die Kellnerinnen. Jede gezogene Kellnerin (und eine fest angestellte) gibt dir einen Würfel in "
            + "deiner Farbe, sofort gewürfelt; höchstens 3.",
          "D — Die Bestellung. Alle würfeln 4 weiße Würfel auf einem Bierdeckel. Nimm einen Würfel, gib den "
            + "Bierdeckel nach links weiter und wiederhole das, bis alle 4 haben.",
          "E — Planung. Lege alle deine Würfel auf die Felder deiner Taverne: Gäste, Kasse, Bierfass, Mönch, "
            + "Lieferant. Später kannst du sie noch versetzen.",
          "F — Bedienen. In deinem Zug nimmst du deine Würfel einzeln ab, um Taler und Bier zu verdienen, und gibst "
            + "sie sofort aus.",
          "G — Sperrstunde. Jede Karte, die du in dieser Runde gezogen hast, kommt auf deinen Ablagestapel. Nach "
            + "Runde 8 endet das Spiel.",
        ] },
      ],
    },
    {
      id: "actions",
      title: "Die Aktionen",
      blocks: [
        { p: "Was jedes Feld bringt, wenn du einen Würfel davon abnimmst:" },
        { terms: [
          ["Ein Gast, Stammgast oder Adliger", "Die auf der Karte gedruckten Taler. Der Würfel muss einen der Werte "
            + "der Karte zeigen."],
          ["Kasse", "1 Taler für jeden Würfel (3 nach der Aufwertung)."],
          ["Bierfass", "1 Bier für jeden Würfel (2 nach der Aufwertung)."],
          ["Lieferant", "Nimmt nur Einsen und Sechsen: 1 Bier pro Würfel, +1 für jede Lieferantenkarte, die in "
            + "dieser Runde daneben liegt (nach der Aufwertung 2 pro Würfel)."],
          ["Mönch", "Nimmt nur Fünfen: ein Schritt auf der Klosterleiste pro Würfel (2 nach der Aufwertung). Wer "
            + "ein Bonusfeld passiert, erhält den Bonus."],
          ["Ein Tellerwäscher", "Lässt einen Würfel um eins höher zählen (eine 4 zählt als 5). Aus einer 6 wird nie "
            + "eine 1."],
          ["Ein Bierhändler", "1 Bier, ohne Würfel."],
        ] },
        { p: "Dann gibst du aus, in beliebiger Reihenfolge und so oft das Geld reicht:" },
        { list: [
          "Tavernenkarten mit Talern kaufen: Bierhändler 2, Tellerwäscher 3, Kellnerin 4, Tisch 5, Lieferant 6. Von "
            + "jeder Art höchstens eine pro Runde.",
          "Ein Plättchen mit Talern aufwerten (6 bis 12). Jede Aufwertung bringt auch einen Adligen. Gib in dieser "
            + "Runde gezogene Karten dieser Art ab, um weniger zu zahlen (je 3 bis 6 weniger).",
          "Einen Gast pro Runde mit Bier anwerben: die 3-Bier-Gäste oder eine Karte aus der Auslage.",
          "Adlige mit Bier anwerben: 1 für 9, 2 für 14, 3 für 18.",
        ] },
        { p: "Alles, was du kaufst oder anwirbst, kommt verdeckt oben auf deinen Stapel, sodass du es in der "
          + "nächsten Runde ziehst. Am Ende deines Zuges kommen 2 Taler in den Tresor und 2 Bier ins Bierlager "
          + "(nach der Aufwertung je 5); alles Weitere verfällt." },
      ],
    },
    {
      id: "scoring",
      title: "Wertung",
      blocks: [
        { p: "Die Punkte stehen auf deinen Karten. Adlige sind 10 wert, Gäste 1 bis 5, Stammgäste und "
          + "Tavernenkarten nichts. Im ganzen Spiel geht es also darum, Würfel in Taler zu verwandeln, Taler in "
          + "Aufwertungen und Bier, und beides in Adlige." },
        { example: {
          title: "Rechenbeispiel: ein Zug beim Bedienen",
          lines: [
            "Mia hat die Würfel 1, 1, 6 auf ihrem Lieferanten, daneben eine Lieferantenkarte: 3 Würfel × (1 + 1) = "
              + "6 Bier.",
            "Eine 3 auf einem 3-Bier-Gast bringt 2 Taler; eine 2 auf ihrer Kasse bringt 1. Sie hat 3 Taler.",
            "Sie kauft einen Tellerwäscher (3 Taler) und wirbt einen 3-Bier-Gast an (3 Bier).",
            "Die 3 übrigen Bier kommen ins Bierlager: Es fasst 2, also verfällt 1.",
          ],
          total: "Ein Tellerwäscher und ein Gast auf ihrem Stapel, 2 Bier aufbewahrt.",
        } },
        { example: {
          title: "Rechenbeispiel: Schlusszählung",
          lines: [
            "Mia hat 3 Plättchen aufgewertet (3 Adlige) und 1 weiteren Adligen für 9 Bier gekauft: 4 × 10 = 40.",
            "Sie hat Gäste im Wert von 1, 1 und 3 Punkten angeworben: 5.",
          ],
          total: "Mia erhält 45 Punkte.",
        } },
      ],
    },
    {
      id: "end",
      title: "Spielende",
      blocks: [
        { p: "Das Spiel endet nach Runde 8. Alle zählen die Punkte auf allen eigenen Karten zusammen, im Stapel und "
          + "auf dem Ablagestapel." },
        { p: "Die meisten Punkte gewinnen. Bei Gleichstand gewinnt, wer zusammen mehr Taler und Bier aufbewahrt "
          + "hat; besteht der Gleichstand weiter, wird der Sieg geteilt." },
      ],
    },
    {
      id: "expansion",
      title: "Modul 1 und die weiteren Module",
      blocks: [
        { p: "Taproom spielt Modul 1, das Einstiegsspiel, das die Spielregel zuerst empfiehlt. Barden, Schnaps, "
          + "Ansehen, Startkarten und Gästebücher der Module 2 bis 5 sind nicht im Spiel." },
        { p: "Eine Option: Thekengäste. Du erhältst sie von der Rundenleiste. Setze einen in deinem Zug beim "
          + "Bedienen für einen Klosterschritt ein oder (wenn die Option an ist, wie vorgegeben) um deine Taverne "
          + "in Phase B zu räumen und neu zu füllen." },
      ],
    },
  ],
  choices: {
    intro: "Wo die gedruckten Regeln Spielraum lassen oder eine Zahl nicht zu finden war, spielt Taproom es so.",
    rows: [
      ["Kartenwerte", "Die Preise der Tavernenkarten und Aufwertungen sowie die Werte der Gäste sind Schätzungen, "
        + "gewählt so, dass Aufwertungen ein paar Runden dauern und Adlige die meisten Punkte bringen."],
      ["Farbige Würfel nehmen (Phase C)", "Automatisch: Ein Würfel schadet nie."],
      ["Würfel auf einem Feld", "Gäste, Kasse und Bierfass nehmen je einen Würfel; Mönch und Lieferant beliebig "
        + "viele. Ein Feld, dessen Würfel du abgenommen hast, ist für die Runde verbraucht."],
      ["Tellerwäscher", "Ein Würfel erhält genau die Schritte, die er für das Feld braucht, nie über 6."],
      ["Lieferant nach der Aufwertung", "2 Bier pro Würfel, und die Lieferantenkarten geben weiter je 1 dazu."],
      ["Adlige", "So viele Anwerbungen pro Zug, wie dein Bier bezahlt."],
      ["Die Klosterleiste nach 22", "Der Schritt nach 22 landet auf dem Startfeld; von dort wird weitergezählt."],
      ["Tresor und Bierlager", "Was du aufbewahrt hast, wird zu Beginn deines Zuges beim Bedienen zu Geld, das du "
        + "ausgeben kannst; am Ende des Zuges wird aufbewahrt, so viel passt."],
      ["Karten für eine Aufwertung abgeben", "Nur Karten, die in dieser Runde in deine Taverne gezogen wurden; der "
        + "Preis sinkt nie unter 0."],
      ["Leere Stapel", "Ein Bonus von einem leeren Stapel bringt nichts; ein Auslageplatz ohne Gast bleibt leer."],
      ["Startspieler", "Wechselt jede Runde nach links."],
    ],
  },
  tutorial: { ...en.tutorial, length: "3 Runden" },
  coach: {
    intro: "Du spielst eine kurze Partie Tiefenthal gegen einen Bot. Bei jeder Entscheidung erklärt der Coach, "
      + "worum es geht, und schlägt einen Zug vor.",
    decisions: {
      KeepTavern: "Deine Taverne ist voll. Behalte sie oder setze einen Thekengast ein, um sie zu räumen und neu zu "
        + "ziehen.",
      RedrawTavern: "Neu ziehen kostet einen Thekengast: Das lohnt sich nur, wenn diese Taverne schwach ist.",
      PickDie: "Wähle einen Würfel. Denk an deine Felder: Einsen und Sechsen für den Lieferanten, Fünfen für den "
        + "Mönch, genaue Werte für deine Gäste.",
      PlaceDie: "Plane, wohin jeder Würfel kommt. Gäste zahlen Taler, Lieferant und Bierfass geben Bier, der Mönch "
        + "bringt dich auf der Klosterleiste voran.",
      FinishPlanning: "Fertig geplant? Beim Bedienen kannst du Würfel noch versetzen.",
      TakeDie: "Nimm einen Würfel ab, um zu kassieren, was sein Feld bringt, und gib es dann aus.",
      BuyCard: "Eine Tavernenkarte kommt oben auf deinen Stapel für die nächste Runde. Von jeder Art höchstens eine "
        + "pro Runde.",
      UpgradeTile: "Eine Aufwertung verbessert ein Plättchen dauerhaft und bringt einen Adligen (10 Punkte).",
      RecruitGuest: "Gib Bier für einen Gast aus: Er kommt oben auf deinen Stapel.",
      RecruitNobles: "Adlige sind die Punkte: 1 für 9 Bier, 2 für 14, 3 für 18.",
      UseCounterGuest: "Setze einen Thekengast für einen Klosterschritt ein.",
      ChooseBonus: "Wähle deinen Bonus.",
      EndTurn: "Beende deinen Zug beim Bedienen: Tresor und Bierlager bewahren, was passt, der Rest verfällt.",
    },
    moves: {
      KeepTavern: () => "Behalte diese Taverne.",
      RedrawTavern: () => "Setze einen Thekengast ein und ziehe deine Taverne neu.",
      PickDie: (c) => `Nimm eine ${c.value}.`,
      PlaceDie: (c, view) => `Lege deine ${dieValue(view, c.die)} auf ${spaceName(view, c.space)}.`,
      FinishPlanning: () => "Beende die Planung.",
      TakeDie: (c, view) => {
        const die = me(view)?.dice?.find((d) => d.die === c.die);
        const from = die?.space ? spaceName(view, die.space) : "ihrem Feld";
        return `Nimm deine ${dieValue(view, c.die)} von ${from} und kassiere.`;
      },
      BuyCard: (c) => `Kaufe ${CARD[c.card_type] || c.card_type}.`,
      UpgradeTile: (c) => `Werte ${TILE[c.tile] || c.tile} auf`
        + `${c.returned ? ` und gib ${c.returned} ${c.returned === 1 ? "Karte" : "Karten"} ab` : ""}.`,
      RecruitGuest: (c, view) => `Wirb ${guestName(view, c.card)} mit Bier an.`,
      RecruitNobles: (c) => `Wirb ${c.count === 1 ? "einen Adligen" : `${c.count} Adlige`} an.`,
      UseCounterGuest: () => "Setze einen Thekengast für einen Klosterschritt ein.",
      ChooseBonus: (c) => `Nimm Bonus-Option ${c.option + 1}.`,
      EndTurn: () => "Beende deinen Zug.",
    },
    firstTurns: [
      "In den ersten Runden geht es um Geld: Bediene deine Gäste und nutze die Kasse, dann kaufe so bald wie "
        + "möglich eine Aufwertung — jede bringt einen Adligen.",
      "Der Lieferant macht aus Einsen und Sechsen Bier; Bier kauft Gäste und Adlige. Wähle diese Würfel, wenn du "
        + "sie siehst.",
      "Dein Tresor fasst nur 2 Taler: Gib aus, was du verdienst, im selben Zug.",
    ],
  },
};

const CARD = { merchant: "einen Bierhändler", dishwasher: "einen Tellerwäscher", waitress: "eine "
  + "Kellnerin", table: "einen Tisch",
  supplier: "einen Lieferanten" };
const TILE = { tables: "deine Tische", waitress: "deine Kellnerin", cashbox: "deine Kasse", monk: "deinen Mönch",
  dishwasher: "deinen Tellerwäscher", safe: "deinen Tresor", host: "deinen Wirt", barrel: "dein Bierfass",
  supplier: "deinen Lieferanten", storage: "dein Bierlager" };

const me = (view) => view?.players?.[view.you];

function dieValue(view, id) {
  const die = me(view)?.dice?.find((d) => d.die === id);
  return die ? `${die.white ? "weiße" : "farbige"} ${die.value}` : "Würfel";
}

// "table:1" is the guest at the second table; other spaces are tiles (cashbox, barrel, monk, supplier).
function spaceName(view, space) {
  const s = String(space);
  const table = /^table:(\d+)$/.exec(s);
  if (table) {
    const seated = me(view)?.tavern?.tables?.[Number(table[1])];
    const guest = seated?.[seated.length - 1];
    const name = guest ? t(guest.name.replace(/ \(\w+\) \d$/, "")) : "Gast";
    return `${name} an Tisch ${Number(table[1]) + 1}`;
  }
  if (s === "nobles") return "deinen obersten Adligen";
  const tile = { cashbox: "die Kasse", barrel: "das Bierfass", monk: "den Mönch", supplier: "den Lieferanten" }[s];
  return tile || s.replace(/[-_:]/g, " ");
}

function guestName(view, id) {
  const card = view?.guests?.display?.find((g) => g.id === id);
  return card ? `${t(card.name)} (${card.cost} Bier, ${card.vp} ${card.vp === 1 ? "Punkt" : "Punkte"})` : "einen "
    + "3-Bier-Gast";
}
