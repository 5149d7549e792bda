// So spielst du Carcassonne (mit Schafe und Hügel) auf Taproom: die deutsche Fassung von carcassonne.js (gleiche
// Blöcke, gleiche Bilder; die Begriffe folgen der Hans-im-Glück-Ausgabe, siehe domain/carcassonne/GLOSSARY.md).
import en from "./carcassonne.js";

// the pictures are the English guide's scenes with German captions
const figures = () => en.sections.flatMap((s) => s.blocks).filter((b) => b.figure);
const figure = (n, caption) => ({ figure: { ...figures()[n].figure, caption } });

export default {
  game: "carcassonne",
  title: "Carcassonne mit Schafe und Hügel",
  tagline: "Lege Karten zu einer Landschaft aus Städten, Straßen, Klöstern und Wiesen und besetze sie mit deinen "
    + "Gefolgsleuten.",
  glance: [
    ["Spieler", "2 bis 5"],
    ["Dauer", "zu zweit etwa 35 Züge pro Person (72 Karten; 90 mit Schafe und Hügel)"],
    ["In jedem Zug", "eine Karte legen, dann vielleicht eine Figur einsetzen"],
    ["Es gewinnt", "wer nach der letzten Karte die meisten Punkte hat"],
  ],
  sections: [
    {
      id: "setup",
      title: "Aufbau auf einen Blick",
      blocks: [
        { p: "Den Aufbau übernimmt die Seite. Die Startkarte liegt in der Tischmitte; alle anderen Karten warten "
          + "verdeckt im Stapel." },
        { list: [
          "Du hast 7 Gefolgsleute in deiner Farbe. Ein Gefolgsmann auf dem Plan bleibt dort, bis sein Gebiet fertig "
            + "ist; dann kommt er zu dir zurück.",
          "Alle beginnen mit 0 Punkten. Wer anfängt, wird ausgelost; dann geht es reihum.",
          "Mit Schafe und Hügel hast du außerdem einen Schäfer, und ein Beutel enthält 18 Plättchen: Schafe im Wert "
            + "von 1 bis 4 und 2 Wölfe.",
        ] },
      ],
    },
    {
      id: "turn",
      title: "Dein Zug",
      blocks: [
        { p: "Jeder Zug hat dieselben drei Schritte. Der Plan zeigt dir, welche Felder und Stellen erlaubt sind; du "
          + "musst keine Regel selbst prüfen." },
        { steps: [
          "Karte legen. Die oberste Karte des Stapels sehen alle. Lege sie an eine Karte, die schon ausliegt, so "
            + "gedreht, dass jede Kante zu ihrem Nachbarn passt: Stadt an Stadt, Straße an Straße, Wiese an Wiese.",
          "Figur einsetzen (freiwillig). Du darfst einen Gefolgsmann aus deinem Vorrat auf eine Stadt, Straße, ein "
            + "Kloster oder eine Wiese der eben gelegten Karte setzen, aber nur, wenn in dieser ganzen Stadt, "
            + "Straße oder Wiese noch niemand (auch du nicht) einen Gefolgsmann hat.",
          "Werten, was fertig ist. Jede Stadt, Straße und jedes Kloster, das deine Karte abschließt, wird sofort "
            + "gewertet, für den, der dort die meisten Gefolgsleute hat, und diese Gefolgsleute gehen zurück.",
        ] },
        { p: "Eine Karte, die nirgends passt, wird endgültig beiseitegelegt und du ziehst eine neue. Karte falsch "
          + "gelegt? Bis du deine Figur gewählt hast (oder keine), nimmt „Rückgängig“ sie zurück." },
      ],
    },
    {
      id: "actions",
      title: "Wohin ein Gefolgsmann kann",
      blocks: [
        { terms: [
          ["Ritter, in einer Stadt", "Wird gewertet, wenn die Stadt ringsum von Mauern umschlossen ist."],
          ["Wegelagerer, auf einer Straße", "Wird gewertet, wenn beide Enden der Straße enden: an einer Kreuzung, "
            + "einer Stadt, einem Kloster oder weil sie einen Ring schließt."],
          ["Mönch, in einem Kloster", "Wird gewertet, wenn das Kloster von 8 Karten umgeben ist (Seiten und Ecken)."],
          ["Bauer, liegend auf einer Wiese", "Kommt während des Spiels nie zurück. Wiesen werden erst ganz am Ende "
            + "gewertet, für die fertigen Städte, an die sie grenzen."],
        ] },
        { p: "Wenn eine Karte zwei Gebiete verbindet, können in einer Stadt oder Straße zwei Gruppen von "
          + "Gefolgsleuten stehen. Dann bekommt, wer dort mehr Gefolgsleute hat, alle Punkte; bei Gleichstand "
          + "erhalten alle Beteiligten die vollen Punkte." },
        { p: "Gefolgsleute sind knapp: Von deinen 7 ist ein früh gesetzter Bauer für die ganze Partie weg, und ein "
          + "Ritter in einer Stadt, die nie fertig wird, sitzt fest." },
      ],
    },
    {
      id: "scoring",
      title: "Wertung",
      blocks: [
        { table: {
          head: ["Gebiet", "Wenn es fertig ist", "Bei Spielende unfertig"],
          rows: [
            ["Straße", "1 Punkt pro Karte", "1 Punkt pro Karte"],
            ["Stadt", "2 Punkte pro Karte, +2 pro Wappen", "1 Punkt pro Karte, +1 pro Wappen"],
            ["Kloster", "9 Punkte", "1 + 1 für jede Nachbarkarte"],
            ["Wiese (Bauern)", "—", "3 Punkte für jede fertige Stadt, an die sie grenzt"],
          ],
        } },
        figure(0, "Eine fertige Stadt aus 3 Karten mit 1 Wappen (dem blauen Schild): Der blaue Ritter erhält 3 × 2 "
          + "+ 1 × 2 = 8."),
        { example: {
          title: "Rechenbeispiel: ein Zug, zwei Gebiete",
          lines: [
            "Blau hat einen Ritter in einer Stadt aus zwei Karten mit Wappen und einen Wegelagerer auf einer Straße "
              + "aus drei Karten.",
            "Blau legt eine Karte mit einer Stadtkante und einer Kreuzung: Die Stadtkante schließt die Stadt, und "
              + "die Straße endet an der Kreuzung.",
            "Stadt: 3 Karten × 2 + 1 Wappen × 2 = 8 Punkte.",
            "Straße: 4 Karten × 1 = 4 Punkte (die neue Karte zählt auch für die Straße).",
            "Beide Gefolgsleute kommen zurück, bereit für den nächsten Zug.",
          ],
          total: "Blau erhält in diesem Zug 12 Punkte.",
        } },
        figure(1, "Ein Kloster mit 7 seiner 8 Nachbarn. Eine Karte mehr auf dem gestrichelten Feld schließt es für "
          + "9 Punkte ab; "
          + "endet das Spiel vorher, bringt es 1 + 7 = 8."),
        { p: "Auch eine Stadt aus nur zwei Karten bringt fertig 4 Punkte: Für kleine Städte gibt es keinen Abzug." },
      ],
    },
    {
      id: "end",
      title: "Spielende",
      blocks: [
        { p: "Das Spiel endet nach dem Zug, in dem die letzte Karte gelegt wird. Dann wird jeder Gefolgsmann, der "
          + "noch auf dem Plan steht, einmal gewertet, nach der rechten Spalte der Tabelle oben." },
        { steps: [
          "Unfertige Straßen, Städte und Klöster werden für ihre Mehrheit gewertet.",
          "Jede Wiese bringt 3 Punkte für jede fertige Stadt, an die sie grenzt, für den, der dort die meisten "
            + "Bauern hat. Eine Stadt an zwei Wiesen zählt für jede der beiden.",
          "Die höchste Summe gewinnt. Bei Gleichstand an der Spitze teilen sich die Beteiligten den Sieg.",
        ] },
        { example: {
          title: "Rechenbeispiel: eine Wiese am Ende",
          lines: [
            "Rot hat 2 Bauern und Blau 1 Bauern auf einer großen Wiese.",
            "Die Wiese grenzt an drei Städte; zwei davon wurden im Spiel fertig.",
            "Rot hat die Mehrheit: 2 fertige Städte × 3 = 6 Punkte. Blau erhält für diese Wiese nichts.",
          ],
          total: "Rot +6.",
        } },
      ],
    },
    {
      id: "expansion",
      title: "Mit Schafe und Hügel",
      blocks: [
        { p: "Schalte die Erweiterung beim Anlegen einer Partie ein. Sie bringt 18 Karten und drei Ideen." },
        { terms: [
          ["Hügel", "Wird eine Hügelkarte gezogen, kommt eine weitere Karte verdeckt und ungesehen darunter und "
            + "scheidet aus dem Spiel aus. Ein Gefolgsmann auf einer Hügelkarte entscheidet Gleichstände: Haben "
            + "mehrere gleich viele Gefolgsleute in einer Stadt, Straße oder Wiese, punkten nur die, die einen "
            + "Gefolgsmann auf einer Hügelkarte dieses Gebiets haben. Ein Hügel schlägt nie eine größere Zahl von "
            + "Gefolgsleuten."],
          ["Weinberge", "Ein fertiges Kloster bringt 3 Punkte mehr für jede Weinbergkarte unter seinen 8 Nachbarn. "
            + "Unfertige Klöster erhalten keinen Bonus."],
          ["Der Schäfer", "Statt eines Gefolgsmanns darfst du deinen Schäfer auf eine Wiese deiner neuen Karte "
            + "setzen, auf der noch kein Schäfer steht. Ziehe sofort ein Plättchen: Ein Schaf kommt zu deiner "
            + "Herde; ein Wolf schickt den Schäfer nach Hause und beendet deinen Figurenschritt."],
        ] },
        { p: "Später musst du jedes Mal, wenn deine Karte die Wiese deines Schäfers vergrößert, wählen:" },
        { steps: [
          "Herde erweitern: Ziehe ein Plättchen. Ein Schaf kommt dazu; ein Wolf frisst jede Herde auf dieser Wiese, "
            + "niemand punktet.",
          "In den Stall treiben: 1 Punkt pro Schaf, dann verlassen Schäfer und Schafe den Plan.",
        ] },
        { p: "Eine Wiese, die ringsum geschlossen wird, treibt ihre Herden sofort in den Stall, egal wer sie "
          + "geschlossen hat. Herden, die bei Spielende noch draußen sind, bringen nichts; treibe deine also "
          + "rechtzeitig heim." },
        { example: {
          title: "Rechenbeispiel: eine Herde",
          lines: [
            "Grün setzt den Schäfer und zieht eine 2. Zwei Züge später vergrößert Grüns Karte diese Wiese.",
            "Grün erweitert die Herde und zieht eine 3: Die Herde zählt jetzt 5.",
            "Beim nächsten Wachsen der Wiese geht Grün auf Nummer sicher und treibt die Herde in den Stall.",
          ],
          total: "Grün erhält 5 Punkte.",
        } },
      ],
    },
  ],
  choices: {
    intro: "Die gedruckten Regeln lassen ein paar Fragen offen. So spielt Taproom sie.",
    rows: [
      ["Zwei Schäfer stehen auf einer Wiese", "Das Heimtreiben zahlt jedem Besitzer eines Schäfers die Summe der "
        + "ganzen Wiese; ein Wolf schickt alle nach Hause."],
      ["Du schließt eine Wiese, auf der dein eigener Schäfer steht", "Du darfst deine Herde zuerst einmal "
        + "erweitern, dann werden die Herden der Wiese in den Stall getrieben."],
      ["Ein Hügel ist die letzte Karte", "Es kommt nichts darunter, der Zug verläuft normal. Ein Hügel, der "
        + "nirgends passt, nimmt trotzdem eine Karte unter sich aus dem Spiel."],
      ["Beim Einsetzen des Schäfers wird ein Wolf gezogen", "Der Schäfer geht nach Hause, und du setzt in diesem "
        + "Zug keine andere Figur ein."],
      ["Gleichstand mit Hügeln", "Mindestens ein Gefolgsmann auf einer Hügelkarte des Gebiets genügt; mehr "
        + "Gefolgsleute auf Hügeln schlagen nicht weniger."],
      ["Eine Karte, die nirgends passt", "Sie wird endgültig beiseitegelegt und du ziehst neu; das Spiel endet, "
        + "wenn der Stapel leer ist."],
      ["Gleichstand um den Sieg", "Geteilter Sieg."],
      ["Bauern", "Immer im Spiel, wie in der gedruckten Ausgabe."],
      ["Kurze Partien", "Eine Partie kann nur einen Teil der Landschaftskarten verwenden, zufällig ausgewählt "
        + "(Einführung und schnelle Partien)."],
    ],
  },
  tutorial: { ...en.tutorial, length: "20 Karten, etwa 10 Züge pro Person" },
  coach: {
    intro: "Du spielst Carcassonne gegen einen Bot. In jedem Zug sagt dir der Coach, worum es bei der Entscheidung "
      + "geht, und schlägt einen guten Zug vor; "
      + "du kannst ihm folgen oder selbst spielen.",
    decisions: {
      PlaceTile: "Wähle, wohin die gezogene Karte kommt. Die leuchtenden Felder sind erlaubt; drehe die Karte, bis "
        + "ihre Kanten zu den Nachbarn passen. Die eigene Stadt oder Straße zu verlängern oder eine abzuschließen "
        + "ist meist am besten.",
      PlaceFigure: "Du darfst jetzt eine Figur auf die eben gelegte Karte setzen. Ein Gefolgsmann auf einem Gebiet, "
        + "das du bald abschließen kannst, kommt schnell mit Punkten zurück; ein Bauer bleibt bis zum Ende.",
      Pass: "Du kannst auch keine Figur einsetzen und deine Gefolgsleute für eine bessere Gelegenheit aufheben.",
      TendFlock: "Deine Karte hat die Wiese deines Schäfers vergrößert. Erweitere die Herde für mehr Schafe (ein "
        + "Wolf kostet alles) oder treibe sie jetzt für die Punkte in den Stall.",
      RecallAbbot: "Du darfst deinen Abt zurückholen und sein Kloster oder seinen Garten so werten, wie er gerade "
        + "steht.",
    },
    moves: {
      PlaceTile: (c) => `Lege die Karte ${where(c.x, c.y)}, ${c.rotation ? QUARTERS[c.rotation] : "nicht gedreht"}.`,
      PlaceFigure: (c) => `Setze deinen ${FIGURE[c.figure] || "Gefolgsmann"} auf `
        + `${FEATURE[c.feature?.[0]] || "das Gebiet"} der neuen Karte.`,
      Pass: () => "Setze in diesem Zug keine Figur ein.",
      TendFlock: (c) => (c.action === "grow" ? "Erweitere die Herde: Ziehe noch ein Plättchen." : "Treibe die Herde "
        + "in den Stall und werte sie."),
      RecallAbbot: () => "Hole deinen Abt zurück und werte ihn jetzt.",
    },
    firstTurns: [
      "Zug 1: Deine Karte muss an die Startkarte grenzen. Achte auf die Kanten: Eine Stadtkante darf nur an eine "
        + "Stadtkante.",
      "Ein Gefolgsmann in einer kleinen Stadt ist ein guter Anfang: Zwei oder drei Karten schließen sie für 4 bis 8 "
        + "Punkte ab, und der Gefolgsmann kommt zurück.",
      "Behalte zwei oder drei Gefolgsleute im Vorrat: Zum Abschließen brauchst du sie, und in den letzten Zügen "
        + "lohnt sich ein freier Gefolgsmann.",
    ],
  },
};

const QUARTERS = { 1: "einmal gedreht (eine Vierteldrehung im Uhrzeigersinn)", 2: "zweimal gedreht (eine halbe "
  + "Drehung)",
  3: "dreimal gedreht (drei Vierteldrehungen im Uhrzeigersinn)" };
const FEATURE = { c: "die Stadt", r: "die Straße", f: "die Wiese", m: "das Kloster", g: "den Garten" };
const FIGURE = { follower: "Gefolgsmann", shepherd: "Schäfer", abbot: "Abt" };

function where(x, y) {
  if (x === 0 && y === 0) return "auf das Startfeld";
  const parts = [];
  const squares = (n) => `${Math.abs(n)} ${Math.abs(n) === 1 ? "Feld" : "Felder"}`;
  if (x) parts.push(`${squares(x)} nach ${x > 0 ? "rechts" : "links"}`);
  if (y) parts.push(`${y && x ? Math.abs(y) : squares(y)} nach ${y > 0 ? "oben" : "unten"}`);
  return `${parts.join(" und ")} von der Startkarte`;
}
