#include "teach/lesson.h"

#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "engine/step_ids.h"
#include "pipeline/model_request.h"

namespace attn {

namespace {

class Lesson {
    Q_DECLARE_TR_FUNCTIONS(attn::Lesson)
};

Config makeConfig(Variant v, uint64_t seed, int64_t batch = 1) {
    Config c;
    c.variant = v;
    c.seed = seed;
    c.batch = batch;
    c.dIn = 3;
    c.dOut = 2;
    c.heads = v == Variant::MultiHead || v == Variant::MultiHeadWrapper ? 2 : 1;
    c.dropout = 0.0;
    c.mode = Mode::Train;
    c.contextLength = 6;      // the book: context_length = batch.shape[1]
    c.mask = defaultMask(v);  // each module with its own mask, as in the chapter
    return c;
}

LessonScreen screen(const QString& section, const QString& title, const QString& html,
                    const Config& c, const char* step, int head = -1) {
    LessonScreen s;
    s.section = section;
    s.title = title;
    s.html = html;
    s.config = c;
    s.stepId = step;
    s.head = head;
    s.batch = 0;
    return s;
}

std::vector<LessonScreen> build() {
    std::vector<LessonScreen> v;
    const Config simple = makeConfig(Variant::Simplified, 123);
    v.push_back(screen(
        QStringLiteral("3.3"), Lesson::tr("Six tokens, six vectors"),
        Lesson::tr(
            "<p>The chapter starts from the sentence <i>“Your journey starts with one step”</i>, "
            "already turned into six embedding vectors of 3 numbers each. Each row of the "
            "heatmap is one token.</p><p>Goal of attention: give every token a new vector, its "
            "<b>context vector</b>, that mixes in information from the other tokens.</p>"),
        simple, step_id::kInputs));
    v.push_back(screen(
        QStringLiteral("3.3.1"), Lesson::tr("Attention scores: dot products"),
        Lesson::tr(
            "<p>How much should <i>journey</i> care about each token? The simplest measure "
            "is the dot product of the two embeddings: large when they point the same way.</p>"
            "<p>Click a cell to see the products being added up. Row 1 (<i>journey</i>) "
            "is the book's <code>attn_scores_2</code>.</p>"),
        simple, step_id::kScores));
    v.push_back(screen(
        QStringLiteral("3.3.1"), Lesson::tr("Softmax turns scores into weights"),
        Lesson::tr(
            "<p>Softmax makes every row positive and sum to 1: the <b>attention weights</b>. "
            "A row tells how one token divides its attention.</p><p>Click a cell to see the "
            "exponentials and the row's denominator.</p>"),
        simple, step_id::kWeights));
    v.push_back(screen(
        QStringLiteral("3.3.2"), Lesson::tr("Context vectors"),
        Lesson::tr("<p>Each context vector is the weighted sum of all input vectors, using that "
                   "token's row of weights. That is the whole of simplified self-attention: "
                   "<code>softmax(x @ x.T) @ x</code>, with nothing to train.</p>"),
        simple, step_id::kContext));

    const Config v1 = makeConfig(Variant::SelfAttentionV1, 123);
    v.push_back(screen(
        QStringLiteral("3.4.1"), Lesson::tr("Trainable weights: queries, keys, values"),
        Lesson::tr("<p>Real attention learns what to look for. Three trainable matrices "
                   "W<sub>query</sub>, W<sub>key</sub>, W<sub>value</sub> (3 × 2, drawn with "
                   "<code>torch.manual_seed(123)</code> and <code>torch.rand</code>) project every "
                   "token to a query, a key and a value of 2 numbers.</p><p>This is the queries "
                   "matrix, <code>x @ W_query</code>.</p>"),
        v1, step_id::kQueries));
    v.push_back(screen(
        QStringLiteral("3.4.1"), Lesson::tr("Scores from queries and keys, scaled"),
        Lesson::tr("<p>Now a score is query · key instead of embedding · embedding, and it is "
                   "divided by √d<sub>k</sub> = √2 so softmax does not become too peaked when "
                   "d<sub>k</sub> "
                   "is large: <b>scaled dot-product attention</b>.</p>"),
        v1, step_id::kScaledScores));
    v.push_back(screen(QStringLiteral("3.4.1"), Lesson::tr("Attention weights"),
                       Lesson::tr("<p>Softmax of the scaled scores: each row sums to 1.</p>"), v1,
                       step_id::kWeights));
    v.push_back(screen(
        QStringLiteral("3.4.2"), Lesson::tr("SelfAttention_v1"),
        Lesson::tr(
            "<p>The context vectors are the weighted sums of the <b>values</b>. Packed into a "
            "class, this is <code>SelfAttention_v1</code>; with seed 123 its output is the "
            "book's 6 × 2 result.</p>"),
        v1, step_id::kOutput));

    Config v2 = makeConfig(Variant::SelfAttention, 789);
    v.push_back(screen(
        QStringLiteral("3.4.2"), Lesson::tr("SelfAttention_v2 with nn.Linear"),
        Lesson::tr("<p><code>SelfAttention_v2</code> uses <code>nn.Linear</code> layers instead of "
                   "raw matrices: same computation, better initial weights. The book uses "
                   "<code>torch.manual_seed(789)</code> here, so the numbers differ from v1 "
                   "(seed 123).</p>"),
        v2, step_id::kWeights));

    Config causal = makeConfig(Variant::Causal, 789);
    causal.mask = MaskSpec{MaskKind::Causal, 0};
    v.push_back(screen(
        QStringLiteral("3.5.1"), Lesson::tr("Hiding the future: the simple way, step 1"),
        Lesson::tr("<p>A language model predicts the next word, so a token must not look at the "
                   "tokens after it. The simple method starts from the ordinary weights of "
                   "SelfAttention_v2 (seed 789)...</p>"),
        causal, step_id::kWeightsUnmasked));
    v.push_back(screen(
        QStringLiteral("3.5.1"), Lesson::tr("Step 2: zero above the diagonal"),
        Lesson::tr(
            "<p>...multiplies them by a lower-triangular matrix of ones "
            "(<code>torch.tril</code>), which zeroes every weight of a later token. The rows "
            "no longer sum to 1.</p>"),
        causal, step_id::kWeightsTril));
    v.push_back(screen(
        QStringLiteral("3.5.1"), Lesson::tr("Step 3: renormalise the rows"),
        Lesson::tr("<p>Dividing each row by its sum makes it a distribution again. Open "
                   "<b>Compare</b> to see that this equals the efficient method on the next screen "
                   "to within 10<sup>−6</sup>.</p>"),
        causal, step_id::kWeightsRenormalized));
    v.push_back(screen(QStringLiteral("3.5.1"), Lesson::tr("The efficient way: −∞ before softmax"),
                       Lesson::tr("<p>Instead, fill the scores above the diagonal with −∞ "
                                  "(<code>masked_fill</code>). Hatched cells are masked.</p>"),
                       causal, step_id::kMaskedScores));
    v.push_back(screen(
        QStringLiteral("3.5.1"), Lesson::tr("Causal attention weights"),
        Lesson::tr(
            "<p>exp(−∞) = 0, so softmax gives the masked cells exactly 0 and the rest of each "
            "row sums to 1: the same weights as the simple method, in one pass.</p>"),
        causal, step_id::kWeights));

    Config drop = makeConfig(Variant::Causal, 123);
    drop.mask = MaskSpec{MaskKind::Causal, 0};
    drop.dropout = 0.5;
    drop.dropoutRng = DropoutRng::Default;  // the book's printed dropout matches this kernel
    v.push_back(screen(
        QStringLiteral("3.5.2"), Lesson::tr("Dropout: which weights are kept"),
        Lesson::tr("<p>While training, dropout randomly drops attention weights so the model does "
                   "not depend on a few connections. With p = 0.5 about half of them are "
                   "dropped; 1 = kept.</p>"
                   "<p><b>New seed:</b> from here on the module is <code>CausalAttention</code> "
                   "built with seed 123, as in section 3.5.3, so its weights are not the seed-789 "
                   "weights of the causal screens before.</p>"
                   "<p><small>Not the book's printed pattern either: the book drops the seed-789 "
                   "weights and calls <code>torch.manual_seed(123)</code> right before "
                   "<code>dropout(...)</code>, while here <code>CausalAttention</code> is "
                   "built after it and its three Linear layers draw random numbers first, so "
                   "dropout takes a later part of the same random stream. The rule is the "
                   "same.</small></p>"),
        drop, step_id::kDropoutMask));
    v.push_back(screen(
        QStringLiteral("3.5.2"), Lesson::tr("Dropped weights are rescaled"),
        Lesson::tr(
            "<p>Dropped weights become 0 and kept ones are multiplied by 1/(1 − 0.5) = 2, so "
            "on average the weights keep their size. At inference time (eval mode) dropout is "
            "off.</p><p>The kept weights are those of seed 123, not of the seed-789 screens "
            "before.</p>"),
        drop, step_id::kDroppedWeights));

    Config ca = makeConfig(Variant::Causal, 123, 2);
    v.push_back(screen(
        QStringLiteral("3.5.3"), Lesson::tr("The CausalAttention class"),
        Lesson::tr(
            "<p>Causal mask and dropout together make <code>CausalAttention</code>. The book "
            "stacks the input twice (batch of 2) and uses seed 123: the output has shape "
            "(2, 6, 2).</p>"),
        ca, step_id::kOutput));

    Config wrap = makeConfig(Variant::MultiHeadWrapper, 123, 2);
    v.push_back(screen(
        QStringLiteral("3.6.1"), Lesson::tr("Several heads: the wrapper"),
        Lesson::tr(
            "<p>One head learns one kind of relation. <code>MultiHeadAttentionWrapper</code> "
            "runs 2 independent CausalAttention heads and concatenates their outputs: "
            "2 heads × d_out 2 = 4 numbers per token, shape (2, 6, 4).</p>"),
        wrap, step_id::kOutput));
    v.push_back(screen(
        QStringLiteral("3.6.1"), Lesson::tr("Each head has its own weights"),
        Lesson::tr(
            "<p>The two heads compute different attention patterns from the same input. "
            "Switch heads in the head grid, or open the token view to see both at once.</p>"),
        wrap, step_id::kWeights, 1));

    Config mha = makeConfig(Variant::MultiHead, 123, 2);
    v.push_back(screen(
        QStringLiteral("3.6.2"), Lesson::tr("MultiHeadAttention: one projection, split"),
        Lesson::tr(
            "<p><code>MultiHeadAttention</code> is the efficient version: one W<sub>query</sub> "
            "for all heads, then <code>.view</code> cuts d_out = 2 into 2 heads of "
            "head_dim = 1. Column “h.i” is element i of head h.</p>"),
        mha, step_id::kQueriesSplit));
    v.push_back(screen(
        QStringLiteral("3.6.2"), Lesson::tr("Grouped by head"),
        Lesson::tr(
            "<p><code>.transpose(1, 2)</code> moves the head axis before the tokens, so every "
            "head holds its own (6 × 1) queries and all heads run in one batched matrix "
            "product.</p>"),
        mha, step_id::kQueriesHeads, 0));
    v.push_back(screen(
        QStringLiteral("3.6.2"), Lesson::tr("Attention weights per head"),
        Lesson::tr("<p>Each head has its own causal attention weights, scaled by √head_dim = 1. "
                   "This is head 1.</p>"),
        mha, step_id::kWeights, 1));
    v.push_back(
        screen(QStringLiteral("3.6.2"), Lesson::tr("Heads joined again"),
               Lesson::tr("<p>The heads' context vectors are transposed back and joined per token "
                          "(<code>.contiguous().view</code>): d_out = 2 again.</p>"),
               mha, step_id::kContext));
    v.push_back(screen(
        QStringLiteral("3.6.2"), Lesson::tr("Output projection"),
        Lesson::tr(
            "<p>Finally <code>out_proj</code>, a 2 × 2 linear layer with bias, mixes the "
            "heads. With seed 123 this is the book's (2, 6, 2) result. Open the PyTorch panel "
            "to run the same code yourself.</p>"),
        mha, step_id::kOutput));
    return v;
}

// Sonnet 18 (public domain), its first four lines as printed, one per line: text the model
// never saw (it was trained on the plays), in the form it was trained on, verse in lines. With
// the line breaks made spaces the tokens differ from that form (" Thou" for "\n", "Th", "ou")
// and the model is surprised by a text it never sees (7.98 nats instead of 5.53).
const char* const kSonnetLines =
    "Shall I compare thee to a summer's day?\nThou art more lovely and more temperate:\nRough "
    "winds do shake the darling buds of May,\nAnd summer's lease hath all too short a date;";
// Ten words the plays use often, each one GPT-2 token, said twice: the second half can be
// predicted by copying what followed each word the first time.
const char* const kRepeatedWords =
    " king night sword heart blood gold queen grace tongue horse"
    " king night sword heart blood gold queen grace tongue horse";

LessonScreen modelScreen(const QString& section, const QString& title, const QString& html,
                         const char* page, const char* step, int layer, int head,
                         LessonHead pick = LessonHead::Fixed, const char* text = kSonnetLines) {
    LessonScreen s;
    s.section = section;
    s.title = title;
    s.html = html;
    s.stepId = step;
    s.head = head;
    s.model = trainedModelLessonModel();
    s.text = QString::fromUtf8(text);
    s.layer = layer;
    s.page = QString::fromLatin1(page);
    s.pick = pick;
    return s;
}

std::vector<LessonScreen> buildTrainedModelLesson() {
    std::vector<LessonScreen> v;
    v.push_back(modelScreen(
        Lesson::tr("All layers"), Lesson::tr("A model that has learned"),
        Lesson::tr(
            "<p>Chapter 3's module had random weights: its attention patterns meant nothing. "
            "This model, <b>tiny-shakespeare</b>, is a small GPT-2 (4 layers of 4 heads, "
            "d_model 128) trained on Shakespeare's plays. Every one of its 16 heads computes "
            "exactly chapter 3's attention (queries, keys, scores, causal mask, softmax), only "
            "with weights learned from text.</p>"
            "<p>The <b>All layers</b> page shows each head's weights on the start of Sonnet 18, "
            "which the model never read: rows are queries, columns keys, bright means much "
            "attention. Some heads look at the first token, some spread evenly, some keep to "
            "nearby tokens.</p><p>Click a tile to select its head; double-click it to follow "
            "that head step by step.</p>"),
        "overview", step_id::kWeights, 0, 0));
    v.push_back(modelScreen(
        Lesson::tr("Layer steps"), Lesson::tr("Trained weights, chapter 3's steps"),
        Lesson::tr(
            "<p>The same steps as in chapter 3, for layer 2, head 3: the pipeline strip above "
            "the heatmap runs from the block's input through queries, keys, scores, mask and "
            "softmax to the context vectors, with the model's real sizes (d_model 128, head "
            "size 32) in the Shapes panel.</p>"
            "<p>With chapter 3's random W_query and W_key the rows were spread without a pattern. "
            "Here most rows put nearly all their weight on one key, and the same key serves a "
            "whole run of rows: vertical stripes under <i>compare</i>, under the question mark "
            "and under the colon, and the line breaks look back to <i>to</i>.</p>"
            "<p>Click a cell: the Explain panel derives it from this layer's queries and keys, "
            "with the model's numbers; the PyTorch panel loads the same file and prints them.</p>"),
        "steps", step_id::kWeights, 2, 3));
    v.push_back(modelScreen(
        Lesson::tr("Previous token"), Lesson::tr("A previous-token head"),
        Lesson::tr(
            "<p>The view now shows the head with the highest <b>previous-token score</b> on this "
            "text: the mean weight each token puts on the token just before it (the status line "
            "names its layer and head; the Head scores page gives the score). A head that puts "
            "most of its weight there is a <b>previous-token head</b>: its heatmap is a bright "
            "stripe just below the diagonal.</p>"
            "<p>Why learn it? After such a head, every position also carries the token before "
            "it, so later layers can predict from pairs of tokens instead of one.</p>"
            "<p>GPT-2 small has heads that put nearly all their weight there. This small "
            "model's best, in layer 0, puts more than half of it there and most of the rest on "
            "the two or three tokens before: a clear stripe with a fainter one beside it. Hover a "
            "row to see where its weight goes.</p>"),
        "steps", step_id::kWeights, 0, 0, LessonHead::BestPreviousToken));
    v.push_back(modelScreen(
        Lesson::tr("Head scores"), Lesson::tr("Finding heads by their scores"),
        Lesson::tr(
            "<p>Every head's summaries on this text, as small layer x head maps and as a list: "
            "<b>row entropy</b> (low: the head picks a few keys), <b>mean distance</b> (how far "
            "back it looks), <b>weight on the first token</b> (an <i>attention sink</i>: a head "
            "with nothing to do parks its attention there) and the <b>previous-token score</b>.</p>"
            "<p>Click a column's title to sort by it; click a head to open its steps.</p>"),
        "scores", step_id::kWeights, 0, 0));
    v.push_back(modelScreen(
        Lesson::tr("Induction"), Lesson::tr("Repeated words: looking for an induction head"),
        Lesson::tr(
            "<p>The text is now ten words, said twice. In the second half each word can be "
            "predicted by finding where the current word appeared before and copying the word "
            "that followed it. Heads that do this are <b>induction heads</b>: in the second half "
            "their rows put weight on the token <i>after</i> the earlier occurrence, a stripe "
            "parallel to the diagonal, nine columns left of it.</p>"
            "<p>The view shows the head with the highest induction score. Induction heads need a "
            "previous-token head in an earlier layer and a lot of training text. This model, "
            "trained on one book, has none: its best induction score is only a little above what "
            "uniform attention would give, and the view shows no stripe parallel to the diagonal. "
            "GPT-2 small shows several clear ones (open it with File &gt; Open model file if you "
            "have it).</p>"),
        "steps", step_id::kWeights, 0, 0, LessonHead::BestInduction, kRepeatedWords));
    v.push_back(modelScreen(
        Lesson::tr("The block"), Lesson::tr("What the rest of the block adds"),
        Lesson::tr(
            "<p>Attention is half of a transformer block; the strip shows the whole block, each "
            "chip named as below. The <b>residual stream</b> enters (<i>x</i>), LayerNorm 1 makes "
            "chapter 3's <i>input</i>, and the attention's output is <b>added</b> to the stream "
            "(<i>x + attn</i>); then <i>LayerNorm 2</i> and the <b>feed-forward</b> network "
            "(<i>GELU</i>, a layer 4 times wider, then <i>out</i>) transform each token on its "
            "own and are added again (<i>x + FF</i>), the next layer's input.</p>"
            "<p>Attention moves information between tokens; the feed-forward works on each token "
            "alone. Change the Layer box above the heatmap to follow the stream through the "
            "four blocks.</p>"),
        "steps", step_id::kBlockOutput, 0, 0));
    LessonScreen predicts = modelScreen(
        Lesson::tr("Next token"), Lesson::tr("What the model predicts"),
        Lesson::tr(
            "<p>After the last block the model turns each token's vector into scores for all "
            "50,257 tokens. The <b>Next token</b> panel on the left lists the most probable "
            "ones after the last token.</p>"
            "<p>Press <b>Append</b> to add the top token to the text, or pick another first: "
            "the model then reads its own output, and the heatmaps show the attention of the "
            "generated tokens. Click a heatmap row to see what the model predicted at that "
            "position and what the text really says.</p>"
            "<p><small>Presentation mode shows only the heatmap and this panel: press Esc to "
            "reach the list and Append, F11 to come back.</small></p>"),
        "steps", step_id::kWeights, 3, 0);
    predicts.predictions = true;
    v.push_back(predicts);
    return v;
}

// tools/check_bundled_model.py's circuit text: 16 of the training text's common whole-word
// tokens picked at random (seed 7), said twice; each word one GPT-2 token.
const char* const kCircuitWords =
    " slaughter resolved pleasant whom bride always knowledge tongues bids night wherein them"
    " dog hereafter fought died"
    " slaughter resolved pleasant whom bride always knowledge tongues bids night wherein them"
    " dog hereafter fought died";

// "L0H1": how the lessons name a head.
QString headName(HeadRef h) {
    return QStringLiteral("L%1H%2").arg(h.layer).arg(h.head);
}

// A trained model's screen on `model` (not the trained-model lesson's) with `ablate` off.
LessonScreen onModel(LessonScreen s, const QString& model, std::vector<HeadRef> ablate) {
    s.model = model;
    s.ablate = std::move(ablate);
    return s;
}

std::vector<LessonScreen> buildWhyLesson() {
    const HeadRef prev = whyLessonPreviousTokenHead();
    const HeadRef idle = whyLessonIdleHead();
    const QString prevName = headName(prev), idleName = headName(idle);
    const auto screen = [&](const QString& section, const QString& title, const QString& html,
                            const char* page, const char* step, HeadRef head,
                            std::vector<HeadRef> ablate = {}, const char* text = kSonnetLines,
                            LessonHead pick = LessonHead::Fixed) {
        return onModel(modelScreen(section, title, html, page, step, int(head.layer),
                                   int(head.head), pick, text),
                       whyLessonModel(), std::move(ablate));
    };
    std::vector<LessonScreen> v;
    v.push_back(screen(
        Lesson::tr("A head"), Lesson::tr("Where a head looks, and what it does"),
        Lesson::tr(
            "<p>The heatmaps show where each head <i>looks</i>. They do not show what that "
            "looking <i>does</i> for the prediction. To find out, switch the head off and see "
            "what changes: <b>ablation</b>.</p>"
            "<p>This is head <b>%1</b> of tiny-shakespeare on the first four lines of Sonnet 18, "
            "as printed: its previous-token head, most of each row's weight on the token just "
            "before. Under the next-token list, the "
            "line <b>Loss on this text</b> says how surprised the model is by the sonnet, on "
            "average: the mean of -ln p(each token | the tokens before it), in nats.</p>")
            .arg(prevName),
        "steps", step_id::kWeights, prev));
    v.push_back(screen(
        Lesson::tr("Switch it off"), Lesson::tr("Without the previous-token head"),
        Lesson::tr(
            "<p>Head %1 is now <b>switched off</b>: what it writes is replaced by zeros before the "
            "output projection (Heads menu, Ctrl+K, or right-click a head). Every later layer "
            "is computed again; the head's own pattern is still drawn, crossed out.</p>"
            "<p>The loss line now gives both numbers: the sonnet got harder to predict (from "
            "5.53 to 5.64 nats per token), and each probability in the list says what it was. "
            "The <b>Text view</b> (Ctrl+7, colour by <i>change in loss</i>) shows where: red "
            "tokens were easier with the head on.</p>"
            "<p><b>Restore all</b> over the list (or Ctrl+Shift+K) switches it back on.</p>")
            .arg(prevName),
        "steps", step_id::kWeights, prev, {prev}));
    v.push_back(screen(
        Lesson::tr("Most heads"), Lesson::tr("Not every head matters"),
        Lesson::tr(
            "<p>Now head %1 is off instead. It looks at the text as busily as any head, but the "
            "loss hardly moves (from 5.53 to 5.53 nats per token): for this text the model does "
            "not need it. Looking is not doing.</p>"
            "<p>Try others: right-click a head in <b>All layers</b> or <b>Head scores</b>. A few "
            "even lower the loss a little when switched off (L2H0: from 5.53 to 5.51): a head "
            "learnt what helps on the plays on average, and on one text it can push the wrong "
            "way. "
            "<i>Mean</i> ablation (the box beside the switched-off heads) lets a head write its "
            "average instead of nothing, which separates what it says about <i>this</i> token "
            "from what it always adds.</p>")
            .arg(idleName),
        "overview", step_id::kWeights, idle, {idle}));
    v.push_back(screen(
        Lesson::tr("Logit lens"), Lesson::tr("Where the prediction forms"),
        Lesson::tr(
            "<p>The <b>logit lens</b> reads the residual stream after each layer with the "
            "model's own final norm and output head: what would the model predict if it "
            "stopped there? Each column is a token of the sonnet, each row a layer; bold cells "
            "are the sonnet's real next token.</p>"
            "<p>Read a column downwards: after layer 0 the guess is often a frequent token (a "
            "line break, a comma, <i>thy</i>); in 16 of the 46 columns a later layer changes it. "
            "On this short text the last layer has the real next token on top no more often "
            "than layer 0 (9 times each): the sonnet is hard for so small a model. Switch %1 "
            "off (Ctrl+K on it in the Layer steps) and compare.</p>")
            .arg(prevName),
        "lens", step_id::kWeights, prev));
    v.push_back(screen(
        Lesson::tr("Copying"), Lesson::tr("A model that cannot copy yet"),
        Lesson::tr(
            "<p>Sixteen random common words, said twice. In the second half every word could be "
            "predicted by <b>copying</b>: find the earlier occurrence of the current word and say "
            "the word after it. A head that does this is an <b>induction head</b>; it reads what "
            "a previous-token head in an earlier layer wrote, a <b>circuit</b> of two heads.</p>"
            "<p>This model has the previous-token head but no induction head: the view shows "
            "its best one, with no stripe parallel to the diagonal. Colour the Text view by "
            "<i>each token's loss</i>: the second half is no easier than the first. The "
            "lesson <b>How a model copies</b> shows the circuit in <b>tiny-circuit</b>, a model "
            "trained to copy; models trained on more text (GPT-2 small, Llama, Qwen, Gemma) "
            "have such heads too.</p>"),
        "steps", step_id::kWeights, prev, {}, kCircuitWords, LessonHead::BestInduction));
    v.push_back(screen(
        Lesson::tr("Sampling"), Lesson::tr("Writing with the model"),
        Lesson::tr(
            "<p><b>Sample a continuation</b>, under the loss line, lets the model write: each "
            "token is drawn from its next-token probabilities. <b>Temperature</b> below 1 "
            "sharpens them, above 1 flattens them; 0 always takes the most probable token. "
            "<b>Top-k</b> and <b>top-p</b> keep only the most probable tokens.</p>"
            "<p>Set temperature 0.8 and seed 7 and press <b>Append sampled</b>; undo (Ctrl+Z) "
            "and press it again: the same seed gives the same text. Then switch a head off and "
            "sample again.</p>"),
        "steps", step_id::kWeights, prev, {}, "ROMEO:"));
    return v;
}

// tools/check_bundled_model.py --common 500's circuit text for tiny-circuit: 16 whole-word
// tokens among the 500 ids it learnt to copy, picked at random (seed 7), said twice.
const char* const kCopyWords =
    " their some news state heaven nothing home war should these mind hath cousin thy them must"
    " their some news state heaven nothing home war should these mind hath cousin thy them must";

std::vector<LessonScreen> buildCopyLesson() {
    const HeadRef prev = copyLessonPreviousTokenHead();
    const HeadRef ind = copyLessonInductionHead();
    const QString prevName = headName(prev), indName = headName(ind);
    const auto screen = [&](const QString& section, const QString& title, const QString& html,
                            const char* page, HeadRef head, std::vector<HeadRef> ablate = {}) {
        return onModel(modelScreen(section, title, html, page, step_id::kWeights, int(head.layer),
                                   int(head.head), LessonHead::Fixed, kCopyWords),
                       copyLessonModel(), std::move(ablate));
    };
    std::vector<LessonScreen> v;
    v.push_back(screen(
        Lesson::tr("Copying"), Lesson::tr("Words said twice"),
        Lesson::tr(
            "<p><b>tiny-circuit</b> is a small GPT-2 (2 layers of 4 heads): the first two "
            "layers of tiny-shakespeare, trained further on Shakespeare's plays and on rows of "
            "random common words with a stretch said twice. The text here is sixteen common "
            "words, then the same sixteen again.</p>"
            "<p>In the second half every word can be predicted by <b>copying</b>: find where the "
            "current word stood before and say the word that followed it. Head <b>%1</b> does "
            "exactly that. In its heatmap the rows of the second half light up on a stripe "
            "parallel to the diagonal, fifteen columns to the left of it: one step to the "
            "right of the earlier copy of the row's own word, on the word that came "
            "<i>after</i> it. A head that does this is an <b>induction head</b>; its score on "
            "this text is 0.95 (the mean weight on that stripe).</p>")
            .arg(indName),
        "steps", ind));
    v.push_back(screen(
        Lesson::tr("Previous token"), Lesson::tr("The head below it"),
        Lesson::tr(
            "<p>How does %1 know where the word after an earlier copy is? Not from the word "
            "itself: that position holds a different word. It needs a head in an earlier layer: "
            "head <b>%2</b> here, a <b>previous-token head</b>, with its weight just left of the "
            "diagonal. It writes \"the word before me was <i>heaven</i>\" into each position.</p>"
            "<p>%1's query at the second <i>heaven</i> then matches the key that says \"the word "
            "before me was <i>heaven</i>\": the position right after the first <i>heaven</i>, "
            "which holds <i>nothing</i>. Its value there is the word to copy. Two heads in two "
            "layers working together: a "
            "<b>circuit</b>.</p>")
            .arg(indName, prevName),
        "steps", prev));
    v.push_back(screen(
        Lesson::tr("Switch it off"), Lesson::tr("Without the previous-token head"),
        Lesson::tr(
            "<p>Head %1 is now <b>switched off</b> (Heads menu, Ctrl+K, or right-click a head) "
            "and the view is back on %2. Its stripe fades: the weight on the word to copy falls "
            "from 0.95 to 0.10. Nothing in layer 1 tells it any more where an earlier word was "
            "followed by what.</p>"
            "<p>The loss line under the next-token list says what that costs: from 5.86 to 10.71 "
            "nats per token. Open the <b>Text view</b> (Ctrl+7) and colour it by <i>change in "
            "loss</i>: the second half turns red (15 of its 16 tokens; its first word, after the "
            "last "
            "word of the first half, cannot be copied). <b>Restore all</b> (Ctrl+Shift+K) switches "
            "the head back on.</p>")
            .arg(prevName, indName),
        "steps", ind, {prev}));
    v.push_back(screen(
        Lesson::tr("Logit lens"), Lesson::tr("Where the copied word wins"),
        Lesson::tr(
            "<p>The <b>logit lens</b> reads the residual stream after each layer with the "
            "model's final norm and output head. Each column is a token of the text, each row a "
            "layer; bold cells are the text's real next token.</p>"
            "<p>In the second half, after layer 0 the copied word is almost never on top: no "
            "head in layer 0 can find the earlier copy of a word. After layer 1, where %1 sits, "
            "the copied word is on top at every position: that is the layer at which copying "
            "wins. Switch %2 off (Ctrl+K on it in the Layer steps) and "
            "look again.</p>")
            .arg(indName, prevName),
        "lens", ind));
    v.push_back(screen(
        Lesson::tr("Head scores"), Lesson::tr("Finding circuits in any model"),
        Lesson::tr(
            "<p>The <b>Head scores</b> page ranks every head by its previous-token and induction "
            "scores on the text in the view. Here %1 leads the previous-token column and %2 the "
            "induction column.</p>"
            "<p>Your own text said twice gets an induction column too: the page finds where the "
            "text repeats itself, behind other words or when its first word is another token "
            "the second time (<i>The</i> and <i> The</i>), and its legend names the tokens it "
            "scored. But tiny-circuit copies well only the common words it was trained to "
            "copy: on <i> The cat sat on the mat.</i> said twice %2 scores 0.25 and L1H0 leads "
            "with 0.48. Bigger models (GPT-2 small, Llama, Qwen, Gemma) copy any text; look for "
            "their induction heads the same way.</p>")
            .arg(prevName, indName),
        "scores", ind));
    return v;
}

}  // namespace

// Sizes small enough to read every number: the book's 3-d vectors, four heads of one number,
// rotary heads of four (two pairs, a fast one and a slow one).
Config afterConfig(Variant v, int64_t heads, int64_t kvGroups) {
    Config c = makeConfig(Variant::MultiHead, 123);
    c.variant = v;
    c.heads = heads;
    c.dOut = 4;
    c.kvGroups = kvGroups;
    if (v == Variant::Rotary) {
        c.headDim = 4;
        c.ropeBase = 10000.0;
    }
    return c;
}

std::vector<LessonScreen> buildAfterChapter3Lesson() {
    std::vector<LessonScreen> v;
    const QString cache = Lesson::tr("Cache");
    const Config mha = afterConfig(Variant::MultiHead, 4, 4);
    v.push_back(screen(
        cache, Lesson::tr("What a model keeps while it writes"),
        Lesson::tr(
            "<p>A model writes one token at a time. Each new token's query needs the keys and "
            "values of every token before it, in every layer, so a model keeps them: the "
            "<b>key/value cache</b>. It grows with every token, and on long texts it, not the "
            "weights, fills the memory.</p>"
            "<p>Chapter 3's multi-head attention, here with 4 heads of 1 number, caches a key "
            "and a value for every head: these are the keys, one column per head. The Shapes "
            "panel counts the bytes: 32 per token.</p>"),
        mha, step_id::kKeys));
    const Config mqa = afterConfig(Variant::GroupedQuery, 4, 1);
    v.push_back(screen(
        Lesson::tr("Multi-query"), Lesson::tr("One key for all heads"),
        Lesson::tr("<p><b>Multi-query attention</b> keeps its 4 query heads but projects keys and "
                   "values only once: <code>GroupedQueryAttention</code> with "
                   "<code>num_kv_groups = 1</code> (the book's ch04/04_gqa). This is the one key "
                   "group: a T × 1 matrix for all four heads.</p>"
                   "<p>The cache shrinks fourfold, to 8 bytes per token.</p>"),
        mqa, step_id::kKeysGroups));
    v.push_back(screen(
        Lesson::tr("Multi-query"), Lesson::tr("The heads that share it"),
        Lesson::tr(
            "<p><code>repeat_interleave</code> hands the group to every head: heads 0, 1, 2 "
            "and 3 all read these same keys (this is head 2's copy). The app shows it as a view "
            "of the one group, nothing copied.</p>"
            "<p>The heads still differ: each has its own queries, so each looks for something "
            "else in the same keys.</p>"),
        mqa, step_id::kKeysRepeated, 2));
    const Config gqa = afterConfig(Variant::GroupedQuery, 4, 2);
    v.push_back(screen(
        Lesson::tr("Grouped-query"), Lesson::tr("A few groups: grouped-query attention"),
        Lesson::tr(
            "<p>One group can be too little. <b>Grouped-query attention</b> keeps a few: here "
            "2 groups for 4 heads, heads 0 and 1 reading group 0, heads 2 and 3 group 1. The "
            "cache is 16 bytes per token, half of multi-head attention's.</p>"
            "<p>Llama 3 8B shares 8 key/value groups among 32 heads, Qwen3-0.6B 8 among 16: "
            "nearly multi-head attention's quality for a fraction of its cache. Compare "
            "(<i>Key/value groups vs multi-head</i>) puts both side by side.</p>"),
        gqa, step_id::kWeights, 2));
    const Config rotary = afterConfig(Variant::Rotary, 2, 1);
    const QString rope = QStringLiteral("RoPE");
    v.push_back(screen(
        rope, Lesson::tr("Positions as angles"),
        Lesson::tr(
            "<p>GPT-2 adds a learned position vector to each embedding. Llama, Qwen and Gemma "
            "use <b>rotary position embeddings</b> instead: each head's numbers are taken in "
            "pairs, (0, 2) and (1, 3) for a head of 4, and each pair is turned by an angle: "
            "the position times the pair's frequency, 1 for the first pair and 1/100 for the "
            "second (base<sup>−2i/4</sup> with base 10,000).</p>"
            "<p>This is cos of every angle: a row per position. The first pair turns by a "
            "whole radian per token, the second barely moves: a fast hand and a slow one.</p>"),
        rotary, step_id::kRopeCos));
    v.push_back(screen(
        rope, Lesson::tr("A rotated query"),
        Lesson::tr(
            "<p>Every query and key is turned by its position's angles: (x, y) becomes "
            "(x cos θ − y sin θ, y cos θ + x sin θ). Click a cell to see it computed with its "
            "numbers. The lengths stay the same; only the directions turn.</p>"),
        rotary, step_id::kQueriesRotated));
    Config same = rotary;
    same.dIn = 8;
    same.contextLength = 1024;  // eight tokens of text
    LessonScreen distance = screen(
        rope, Lesson::tr("The same pair at two distances"),
        Lesson::tr(
            "<p>Now eight copies of the word <i>the</i>, without position embeddings: eight "
            "identical vectors. Only RoPE tells them apart. A query turned by m·θ and a key "
            "turned by n·θ meet at the angle (m − n)·θ, so a score depends on how far apart two "
            "tokens are, not on where they stand.</p>"
            "<p>Along a row, the same pair of words at different distances: different scores. "
            "Along each diagonal, the same distance: one number, repeated. Position 5 looks at "
            "position 3 exactly as position 2 looks at position 0.</p>"),
        same, step_id::kScores);
    distance.text = QStringLiteral(" the the the the the the the the");
    distance.positions = false;
    v.push_back(distance);
    LessonScreen unrotated = distance;
    unrotated.config.rope = false;
    unrotated.title = Lesson::tr("Without the rotation");
    unrotated.html = Lesson::tr(
        "<p>The same weights without RoPE (<code>--no-rope</code>): every score in the table is "
        "the same number, and each row spreads its weight evenly. Without positions of any "
        "kind, attention cannot tell the eight tokens apart.</p>"
        "<p>Compare (<i>Rotary with and without RoPE</i>) shows the two side by side on any "
        "text.</p>");
    v.push_back(unrotated);
    Config normed = rotary;
    normed.qkNorm = true;
    v.push_back(screen(
        Lesson::tr("QK-norm"), Lesson::tr("QK-norm: scores that cannot explode"),
        Lesson::tr(
            "<p>Qwen3 and Gemma 3 add <b>QK-norm</b>: before the rotation each head's query and "
            "key is divided by its root mean square (RMSNorm), so its numbers have a typical "
            "size of 1. Training can no longer make the scores huge and softmax all-or-nothing, "
            "which kept large models from training stably.</p>"
            "<p>Click a cell: the mean of the squares and the division, with this head's "
            "numbers.</p>"),
        normed, step_id::kQueriesNormed));
    Config window = gqa;
    window.mask = MaskSpec{MaskKind::Window, 3};
    v.push_back(screen(
        Lesson::tr("Sliding window"), Lesson::tr("A sliding window"),
        Lesson::tr(
            "<p>Mistral, Gemma 2 and Gemma 3 let most layers look only at the last few tokens: "
            "a <b>sliding window</b> (the book's ch04/06_swa). Here each token sees itself and "
            "the 2 before it: a band below the diagonal.</p>"
            "<p>Such a layer caches only the last 3 tokens however long the text grows. Gemma 3 "
            "keeps a full-attention layer after every five windowed ones, so distant tokens "
            "still reach each other.</p>"),
        window, step_id::kWeights));
    Config latent = afterConfig(Variant::Latent, 2, 1);
    latent.latentDim = 2;
    v.push_back(screen(
        Lesson::tr("Latent"), Lesson::tr("Multi-head latent attention"),
        Lesson::tr(
            "<p>DeepSeek compresses instead of sharing: <b>multi-head latent attention</b> "
            "(ch04/05_mla) projects each token to a small <b>latent</b>, here 2 numbers, and "
            "rebuilds every head's keys and values from it. Only the latent is cached: 8 bytes "
            "per token instead of 32, and every head keeps keys of its own.</p>"),
        latent, step_id::kLatent));
    Config qwen = normed;
    qwen.kvGroups = 1;
    v.push_back(screen(
        Lesson::tr("Together"), Lesson::tr("Today's attention"),
        Lesson::tr(
            "<p>Qwen3's attention is all of it at once: grouped-query attention, QK-norm, RoPE, "
            "a causal mask, and chapter 3's scaled dot product and softmax in the middle: "
            "these are its weights. Everything else is the chapter's: queries, keys, values, "
            "scores, softmax, context vectors.</p>"
            "<p>Open the PyTorch panel to run the book's class on the same numbers; the next "
            "two screens show all of it in a trained model of today's family.</p>"),
        qwen, step_id::kWeights));
    // It ends on a trained model of today's family: the one the user has open (LessonDriver
    // puts it in), else the Llama that ships with the app.
    LessonScreen trained = modelScreen(
        Lesson::tr("Trained"), Lesson::tr("A trained model of today's family"),
        Lesson::tr(
            "<p>All of it in a model that has learned: a <b>Llama</b> (grouped-query attention, "
            "RoPE, RMSNorm and SwiGLU), the model you had open when this lesson began, or else "
            "<b>tiny-shakespeare-llama</b>, which ships with the app: trained on the same plays "
            "as tiny-shakespeare, with 4 query heads sharing 2 key/value groups in each of its "
            "4 layers.</p>"
            "<p>On <b>All layers</b> the heads that share keys and values stand together under "
            "their <b>K/V group</b>; a layer with a sliding window says its window beside its "
            "number. Heads of one group read the same keys, yet their patterns differ: their "
            "queries are their own.</p>"),
        "overview", step_id::kWeights, 0, 0);
    trained.model = modernModelLessonModel();
    v.push_back(trained);
    LessonScreen steps = modelScreen(
        Lesson::tr("Trained"), Lesson::tr("Its keys, rotated and shared"),
        Lesson::tr(
            "<p>One layer of it, step by step: the strip above the heatmap now holds the "
            "rotation (<b>cos</b>, <b>sin</b>, <b>Q rotated</b>, <b>K rotated</b>) and the "
            "sharing (<b>share K V</b>): each key/value group's keys, repeated for the query "
            "heads that read them. These are the real keys of the model, with its sizes in the "
            "Shapes panel; the PyTorch panel rebuilds the model from the same folder.</p>"
            "<p>To explore a model you use, open its folder (config.json, model.safetensors, "
            "tokenizer.json) with <b>File &gt; Open model folder...</b> and start this lesson "
            "again: it ends on your model.</p>"),
        "steps", step_id::kKeysRepeated, 1, 2);
    steps.model = modernModelLessonModel();
    v.push_back(steps);
    return v;
}

QString trainedModelLessonModel() {
    return QStringLiteral("tiny-shakespeare");
}

QString modernModelLessonModel() {
    return QStringLiteral("tiny-shakespeare-llama");
}

const std::vector<LessonScreen>& trainedModelLesson() {
    static const std::vector<LessonScreen> screens = buildTrainedModelLesson();
    return screens;
}

const std::vector<LessonScreen>& chapter3Lesson() {
    static const std::vector<LessonScreen> screens = build();
    return screens;
}

const std::vector<LessonScreen>& afterChapter3Lesson() {
    static const std::vector<LessonScreen> screens = buildAfterChapter3Lesson();
    return screens;
}

std::vector<LessonScreen> afterChapter3LessonOn(const QString& openModel) {
    std::vector<LessonScreen> screens = afterChapter3Lesson();
    const bool bundled = bundledModelNames().contains(modernModelLessonModel());
    std::vector<LessonScreen> out;
    for (LessonScreen& s : screens) {
        if (s.model == modernModelLessonModel()) {
            if (!openModel.isEmpty())
                s.model = openModel;
            else if (!bundled)
                continue;  // an installation without it ends on the modules
        }
        out.push_back(std::move(s));
    }
    return out;
}

QString whyLessonModel() {
    return trainedModelLessonModel();
}

// tiny-shakespeare's heads (docs/MODEL.md, tests/fixtures/model/tiny_shakespeare_expected.json):
// layer 0 head 1 puts 0.64 of its weight on the previous token; layer 1 head 1 changes the
// lesson's sonnet lines by 0.01 nats when switched off, L0H1 by 0.13 (tests/teach/lesson_test).
HeadRef whyLessonPreviousTokenHead() {
    return {0, 1};
}

HeadRef whyLessonIdleHead() {
    return {1, 1};
}

QString whyLessonRepeatedText() {
    return QString::fromUtf8(kCircuitWords);
}

QString copyLessonModel() {
    return QStringLiteral("tiny-circuit");
}

// tiny-circuit's circuit (docs/MODEL.md, tests/fixtures/model/tiny_circuit_expected.json): layer
// 0 head 1 puts 0.92 of its weight on the previous token of Sonnet 18 and feeds layer 1 head 2,
// 0.92 on the token after the earlier copy; the lesson's numbers are checked against the app's
// own run in tests/teach/lesson_test.cpp.
HeadRef copyLessonPreviousTokenHead() {
    return {0, 1};
}

HeadRef copyLessonInductionHead() {
    return {1, 2};
}

QString copyLessonRepeatedText() {
    return QString::fromUtf8(kCopyWords);
}

const std::vector<LessonScreen>& copyLesson() {
    static const std::vector<LessonScreen> screens = buildCopyLesson();
    return screens;
}

const std::vector<LessonScreen>& whyLesson() {
    static const std::vector<LessonScreen> screens = buildWhyLesson();
    return screens;
}

std::optional<LessonKind> lessonNamed(const QString& name) {
    static const std::pair<const char*, LessonKind> kNames[] = {
        {"chapter3", LessonKind::Chapter3},
        {"trained-model", LessonKind::TrainedModel},
        {"after-chapter3", LessonKind::AfterChapter3},
        {"why", LessonKind::Why},
        {"copies", LessonKind::Copies},
    };
    for (const auto& [n, kind] : kNames)
        if (name == QLatin1String(n))
            return kind;
    return std::nullopt;
}

const std::vector<LessonScreen>& lessonScreens(LessonKind kind) {
    switch (kind) {
        case LessonKind::Why:
            return whyLesson();
        case LessonKind::Copies:
            return copyLesson();
        case LessonKind::TrainedModel:
            return trainedModelLesson();
        case LessonKind::AfterChapter3:
            return afterChapter3Lesson();
        case LessonKind::Chapter3:
            break;
    }
    return chapter3Lesson();
}

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent) {
    qRegisterMetaType<attn::LessonScreen>();
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(8, 8, 8, 8);
    section_ = new QLabel(this);
    section_->setStyleSheet(QStringLiteral("color: palette(placeholder-text);"));
    title_ = new QLabel(this);
    QFont tf = title_->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.35);
    tf.setBold(true);
    title_->setFont(tf);
    title_->setWordWrap(true);
    title_->setProperty("presentationRole", QStringLiteral("title"));
    section_->setProperty("presentationRole", QStringLiteral("caption"));
    text_ = new QTextBrowser(this);
    text_->setOpenExternalLinks(false);
    text_->setFrameShape(QFrame::NoFrame);
    text_->viewport()->setAutoFillBackground(false);
    bar_ = new QProgressBar(this);
    bar_->setTextVisible(false);
    bar_->setMaximumHeight(6);
    back_ = new QPushButton(tr("< &Back"), this);
    next_ = new QPushButton(tr("&Next >"), this);
    next_->setDefault(true);
    progress_ = new QLabel(this);
    progress_->setAlignment(Qt::AlignCenter);
    auto* nav = new QHBoxLayout;
    nav->addWidget(back_);
    nav->addStretch(1);
    nav->addWidget(progress_);
    nav->addStretch(1);
    nav->addWidget(next_);
    v->addWidget(section_);
    v->addWidget(title_);
    v->addWidget(text_, 1);
    v->addWidget(bar_);
    v->addLayout(nav);
    text_->viewport()->installEventFilter(this);
    connect(back_, &QPushButton::clicked, this, &LessonPanel::back);
    connect(next_, &QPushButton::clicked, this, &LessonPanel::next);
    screens_ = chapter3Lesson();
    refresh();
}

void LessonPanel::setScreens(const std::vector<LessonScreen>& screens) {
    screens_ = screens;
    index_ = 0;
    refresh();
}

const LessonScreen& LessonPanel::currentScreen() const {
    static const LessonScreen empty;
    if (index_ < 0 || index_ >= int(screens_.size()))
        return empty;
    return screens_[size_t(index_)];
}

QString LessonPanel::progressText() const {
    if (screens_.empty())
        return {};
    return tr("%1 / %2").arg(index_ + 1).arg(screens_.size());
}

void LessonPanel::setFontScale(double scale) {
    scale_ = std::clamp(scale, 0.5, 4.0);
    fitText();
}

void LessonPanel::applyScale(double scale) {
    shownScale_ = scale;
    QFont f = font();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(QApplication::font().pointSizeF() * scale);
    text_->setFont(f);
    QFont tf = f;
    tf.setPointSizeF(f.pointSizeF() * 1.35);
    tf.setBold(true);
    title_->setFont(tf);
}

bool LessonPanel::textFits() const {
    const QWidget* view = text_->viewport();
    QTextDocument* doc = text_->document();
    doc->setTextWidth(view->width());
    return doc->size().height() <= view->height() + 1;
}

int LessonPanel::heightToFit() const {
    const QWidget* view = text_->viewport();
    QTextDocument* doc = text_->document();
    doc->setTextWidth(view->width());
    const int need = int(std::ceil(doc->size().height())) + 2;
    return std::max(minimumSizeHint().height(), height() - view->height() + need);
}

void LessonPanel::fitText() {
    if (fitting_)
        return;
    fitting_ = true;
    // From the scale asked for down to the application's size in steps of 5 %: the largest
    // that shows the whole text. Below it the box scrolls, as it does in the window.
    const double floor = std::min(1.0, scale_);
    double scale = scale_;
    applyScale(scale);
    if (text_->viewport()->height() > 0) {
        while (scale > floor && !textFits()) {
            scale = std::max(floor, scale - 0.05);
            applyScale(scale);
        }
    }
    fitting_ = false;
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == text_->viewport() && event->type() == QEvent::Resize && !fitting_)
        fitText();
    return QWidget::eventFilter(watched, event);
}

void LessonPanel::setCurrentIndex(int index) {
    if (screens_.empty())
        return;
    index = std::clamp(index, 0, int(screens_.size()) - 1);
    index_ = index;
    refresh();
    emit indexChanged(index_);
    emit screenChanged(screens_[size_t(index_)]);
}

void LessonPanel::next() {
    if (index_ + 1 >= int(screens_.size())) {
        emit finished();
        return;
    }
    setCurrentIndex(index_ + 1);
}

void LessonPanel::back() {
    if (index_ > 0)
        setCurrentIndex(index_ - 1);
}

void LessonPanel::restart() {
    setCurrentIndex(0);
}

// The module the header names: the book's class (SelfAttention_v1, CausalAttention, ...), code
// in every language; simplified self-attention has no class, so its words are translated.
static QString moduleName(Variant v) {
    return v == Variant::Simplified ? LessonPanel::tr("simplified self-attention")
                                    : QString::fromStdString(variantClassName(v));
}

void LessonPanel::refresh() {
    const bool any = !screens_.empty();
    const LessonScreen& s = currentScreen();
    if (!any)
        section_->clear();
    else if (!s.model.isEmpty())
        section_->setText(tr("Trained model %1  ·  %2").arg(s.model, s.section));
    else if (variantIsAfterChapter3(s.config.variant) || !s.section.front().isDigit())
        // After chapter 3 the sections are topics, not the book's numbers.
        section_->setText(
            tr("After chapter 3: %1  ·  %2").arg(s.section, moduleName(s.config.variant)));
    else
        section_->setText(
            tr("Chapter 3, section %1  ·  %2").arg(s.section, moduleName(s.config.variant)));
    title_->setText(s.title);
    text_->setHtml(s.html);
    fitText();
    progress_->setText(progressText());
    bar_->setRange(0, std::max<int>(1, int(screens_.size())));
    bar_->setValue(any ? index_ + 1 : 0);
    back_->setEnabled(any && index_ > 0);
    next_->setEnabled(any);
    next_->setText(any && index_ + 1 == int(screens_.size()) ? tr("&Finish") : tr("&Next >"));
}

}  // namespace attn
