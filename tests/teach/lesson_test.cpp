// The chapter-3 tour: every screen runs, shows a step its configuration has, in the book's order.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTextDocument>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/decoder_forward.h"
#include "engine/head_scores.h"
#include "export/heatmap_data.h"
#include "pipeline/model_request.h"
#include "pipeline/run_request.h"
#include "teach/explanations.h"
#include "teach/lesson.h"
#include "teach/lesson_slides.h"
#include "teach/next_tokens.h"
#include "teach_test_util.h"
#include "tokenizer/tokenizer.h"

namespace attn {
namespace {

// A teacher holding the book compares the dropout screen with section 3.5.2's printout: the
// screen says why its pattern is another one (the module's Linear layers draw from the seed
// first), instead of leaving a mismatch to explain in class.
TEST(Lesson, TheDropoutScreenSaysWhyItIsNotTheBooksPattern) {
    int found = 0;
    for (const LessonScreen& s : chapter3Lesson())
        if (s.stepId == "dropout_mask") {
            ++found;
            EXPECT_TRUE(s.html.contains(QStringLiteral("Not the book's printed pattern")));
            EXPECT_TRUE(s.html.contains(QStringLiteral("torch.manual_seed(123)")));
        }
    EXPECT_EQ(found, 1);
}

// A screen whose module is built with another seed than the screen before says so, naming both
// seeds: the dropout screens switch from the causal screens' 789 to 123, and a student who
// compares their kept weights with the causal weights two screens earlier is told why they
// differ (issue #41).
TEST(Lesson, AScreenThatChangesTheSeedNamesBothSeeds) {
    const auto& screens = chapter3Lesson();
    int changes = 0;
    for (size_t i = 1; i < screens.size(); ++i) {
        const uint64_t before = screens[i - 1].config.seed, now = screens[i].config.seed;
        if (before == now)
            continue;
        ++changes;
        SCOPED_TRACE(screens[i].title.toStdString());
        EXPECT_TRUE(screens[i].html.contains(QStringLiteral("seed %1").arg(now)) ||
                    screens[i].html.contains(QStringLiteral("manual_seed(%1)").arg(now)));
        EXPECT_TRUE(screens[i].html.contains(QString::number(before)));
    }
    EXPECT_EQ(changes, 2);  // v2's 789, dropout's 123
    for (const LessonScreen& s : chapter3Lesson()) {
        if (s.stepId == "dropped_weights") {
            EXPECT_TRUE(s.html.contains(QStringLiteral("seed-789"))) << s.html.toStdString();
        }
    }
}

// Number of pages in a PDF Qt wrote: its /Type /Page objects (not /Pages).
int pdfPages(const QByteArray& pdf) {
    return int(pdf.count("/Type /Page\n") + pdf.count("/Type /Page\r") + pdf.count("/Type /Page "));
}

// A lesson as slides: one page per screen, each with the heatmap its screen shows.
TEST(LessonSlides, OnePagePerScreenWithItsHeatmap) {
    const auto& screens = chapter3Lesson();
    const std::vector<Slide> slides = lessonSlides(screens, Settings());
    ASSERT_EQ(slides.size(), screens.size());
    for (size_t i = 0; i < slides.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_TRUE(slides[i].heading.startsWith(screens[i].section));
        EXPECT_TRUE(slides[i].heading.contains(screens[i].title));
        EXPECT_EQ(slides[i].html, screens[i].html);
        ASSERT_FALSE(slides[i].figure.isEmpty());
        EXPECT_EQ(slides[i].figure.stepId.toStdString(), screens[i].stepId);
        // The numbers the window shows on that screen: the same trace.
        const Trace t = testing::bookTrace(screens[i].config);
        const HeatmapData want =
            sliceStep(*t.find(screens[i].stepId), testing::bookTokenList(),
                      std::max(0, screens[i].head), screens[i].batch, t.find("mask"));
        EXPECT_EQ(slides[i].figure.values, want.values);
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("tour.pdf"));
    writeSlidesPdf(slides, QStringLiteral("Chapter 3 tour"), path);
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    const QByteArray pdf = f.readAll();
    EXPECT_TRUE(pdf.startsWith("%PDF"));
    EXPECT_EQ(pdfPages(pdf), int(screens.size()));
    EXPECT_THROW(writeSlidesPdf(slides, QStringLiteral("x"), dir.filePath("no/such/dir/x.pdf")),
                 UserError);
}

// Every lesson as PDF slides, each page what its screen shows (issue #41: the trained-model
// screens of All layers, Head scores, Logit lens and Next token all got one head's weights, and
// long texts were cut mid-sentence): a step's heatmap on a Layer steps screen, the overview of
// every head on All layers, the scores table on Head scores, the lens table on Logit lens, the
// next-token list beside the heatmap where the text is about it, the loss line the screens
// quote, and all of each screen's text at a size that fits. The PDFs are written beside the
// test's pictures to look at page by page.
TEST(LessonSlides, EverySlideShowsWhatItsScreenShowsWithAllItsText) {
    const std::pair<LessonKind, const char*> lessons[] = {
        {LessonKind::Chapter3, "chapter3"},
        {LessonKind::TrainedModel, "trained-model"},
        {LessonKind::AfterChapter3, "after-chapter3"},
        {LessonKind::Why, "why"},
        {LessonKind::Copies, "copies"}};
    for (const auto& [kind, name] : lessons) {
        SCOPED_TRACE(name);
        const std::vector<LessonScreen>& screens = lessonScreens(kind);
        bool bundled = true;
        for (const LessonScreen& screen : screens)
            bundled =
                bundled && (screen.model.isEmpty() || bundledModelNames().contains(screen.model));
        if (!bundled)
            continue;
        const std::vector<Slide> slides = lessonSlides(screens, Settings());
        ASSERT_EQ(slides.size(), screens.size());
        for (size_t i = 0; i < slides.size(); ++i) {
            const LessonScreen& screen = screens[i];
            const Slide& slide = slides[i];
            SCOPED_TRACE(screen.title.toStdString());
            EXPECT_GE(slideTextPixelSize(slide.html), 12);
            EXPECT_EQ(slide.html, screen.html);
            if (screen.model.isEmpty()) {
                EXPECT_FALSE(slide.figure.isEmpty());
                EXPECT_TRUE(slide.caption.isEmpty());
                continue;
            }
            const auto model = loadModel(screen.model);
            const int64_t L = model->arch.layers, H = model->arch.heads;
            EXPECT_TRUE(slide.caption.startsWith(QStringLiteral("Loss on this text: ")))
                << slide.caption.toStdString();
            EXPECT_EQ(slide.caption.contains(QStringLiteral("with every head")),
                      !screen.ablate.empty());
            if (screen.page == QLatin1String("overview")) {
                EXPECT_TRUE(slide.figure.isEmpty());
                EXPECT_TRUE(slide.table.isEmpty());
                ASSERT_FALSE(slide.overview.empty());
                EXPECT_EQ(slide.overview.shape()[0], L);
                EXPECT_EQ(slide.overview.shape()[1], H);
            } else if (screen.page == QLatin1String("scores")) {
                EXPECT_TRUE(slide.figure.isEmpty());
                EXPECT_TRUE(slide.overview.empty());
                EXPECT_TRUE(slide.table.contains(QStringLiteral("previous-token score")));
                EXPECT_TRUE(slide.table.contains(QStringLiteral("L%1H%2").arg(L - 1).arg(H - 1)));
                // The text said twice gets its induction column, as on the page.
                const std::vector<Token> tokens =
                    tokenize(TokenizerKind::Gpt2, screen.text.toStdString());
                std::vector<int64_t> ids;
                for (const Token& t : tokens)
                    ids.push_back(t.id);
                EXPECT_EQ(slide.table.contains(QStringLiteral("induction score")),
                          findRepeat(ids).found());
            } else if (screen.page == QLatin1String("lens")) {
                EXPECT_TRUE(slide.figure.isEmpty());
                EXPECT_TRUE(slide.overview.empty());
                for (int64_t l = 0; l < L; ++l)
                    EXPECT_TRUE(slide.table.contains(QStringLiteral("after layer %1").arg(l)));
                EXPECT_TRUE(slide.table.contains(QStringLiteral("<b>")));  // a real next token
            } else {
                EXPECT_EQ(screen.page, QStringLiteral("steps"));
                ASSERT_FALSE(slide.figure.isEmpty());
                EXPECT_EQ(slide.figure.stepId.toStdString(), screen.stepId);
                EXPECT_EQ(slide.table.isEmpty(), !screen.predictions);
            }
            if (screen.predictions) {
                // The list's first entry is the model's most probable next token.
                Settings settings = lessonScreenSettings(screen, Settings());
                const RequestResult r = runRequestOrThrow({settings, {}, model, nullptr, nullptr});
                const auto top = nextTokens(*r.model.run, r.model.run->tokens() - 1, 1);
                ASSERT_EQ(top.size(), 1u);
                EXPECT_TRUE(
                    slide.table.contains(visibleTokenText(top[0].id, model.get()).toHtmlEscaped()));
                // Its probability as the list writes it, and no number in exponent notation.
                EXPECT_TRUE(
                    slide.table.contains(NextTokensPanel::probabilityText(top[0].probability)))
                    << slide.table.toStdString();
                EXPECT_FALSE(slide.table.contains(QStringLiteral("e-0")))
                    << slide.table.toStdString();
                // Every entry's probability reaches the page, as the list writes it: "<0.1%"
                // is text, not the start of a tag that swallows the rest of the cell.
                QTextDocument page;
                page.setHtml(slide.table);
                const QString shown = page.toPlainText();
                const auto all =
                    nextTokens(*r.model.run, r.model.run->tokens() - 1, NextTokensPanel::kTopK);
                ASSERT_EQ(all.size(), size_t(NextTokensPanel::kTopK));
                for (const TokenProbability& p : all)
                    EXPECT_TRUE(shown.contains(NextTokensPanel::probabilityText(p.probability)))
                        << NextTokensPanel::probabilityText(p.probability).toStdString() << " in "
                        << shown.toStdString();
            }
        }
        const QString path = testing::pngPath(QStringLiteral("slides-%1.pdf").arg(name));
        writeSlidesPdf(slides, QString::fromLatin1(name), path);
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::ReadOnly));
        EXPECT_EQ(pdfPages(f.readAll()), int(screens.size()));
    }
    // The trained-model lesson says which of its screens is about the next-token list.
    EXPECT_TRUE(trainedModelLesson().back().predictions);
}

// The third lesson: every screen computes what it names (slides run each screen as the window
// does), and its claims hold for its numbers: one group for four heads, half of multi-head
// attention's cache with two, and on eight identical tokens RoPE's scores repeat along each
// diagonal while without it every score is the same.
TEST(LessonSlides, TheAfterChapter3LessonShowsWhatItSays) {
    const auto& screens = afterChapter3Lesson();
    ASSERT_GE(screens.size(), 10u);
    const std::vector<Slide> slides = lessonSlides(screens, Settings());
    ASSERT_EQ(slides.size(), screens.size());
    std::set<Variant> variants;
    for (size_t i = 0; i < slides.size(); ++i) {
        SCOPED_TRACE(screens[i].title.toStdString());
        if (screens[i].page == QLatin1String("overview")) {
            EXPECT_FALSE(slides[i].overview.empty());
            continue;
        }
        EXPECT_FALSE(slides[i].figure.isEmpty());
        EXPECT_EQ(slides[i].figure.stepId.toStdString(), screens[i].stepId);
        variants.insert(screens[i].config.variant);
    }
    EXPECT_EQ(variants, (std::set<Variant>{Variant::MultiHead, Variant::GroupedQuery,
                                           Variant::Rotary, Variant::Latent}));
    const auto find = [&](const char* title) -> const LessonScreen& {
        for (const LessonScreen& s : screens)
            if (s.title == QLatin1String(title))
                return s;
        ADD_FAILURE() << "no screen " << title;
        return screens.front();
    };
    EXPECT_EQ(kvCacheBytesPerToken(find("What a model keeps while it writes").config), 32u);
    EXPECT_EQ(kvCacheBytesPerToken(find("One key for all heads").config), 8u);
    EXPECT_EQ(kvCacheBytesPerToken(find("A few groups: grouped-query attention").config), 16u);
    EXPECT_EQ(kvCacheBytesPerToken(find("Multi-head latent attention").config), 8u);

    const auto scores = [&](const LessonScreen& screen) {
        const Settings s = lessonScreenSettings(screen, Settings());
        EXPECT_EQ(s.source, InputSource::Text);
        EXPECT_FALSE(s.positions);
        return runSettings(s, {}).trace->find("scores")->value;
    };
    // The screen after the two without position embeddings has them back, and so has the
    // text typed after the lesson.
    const Settings without = lessonScreenSettings(find("Without the rotation"), Settings());
    EXPECT_FALSE(without.positions);
    EXPECT_TRUE(
        lessonScreenSettings(find("QK-norm: scores that cannot explode"), without).positions);
    const Tensor rotated = scores(find("The same pair at two distances"));
    const Tensor plain = scores(find("Without the rotation"));
    ASSERT_EQ(rotated.shape(), (Shape{1, 2, 8, 8}));
    bool varies = false;
    for (int64_t h = 0; h < 2; ++h)
        for (int64_t i = 1; i < 8; ++i)
            for (int64_t j = 1; j < 8; ++j) {
                EXPECT_NEAR(rotated.at({0, h, i, j}), rotated.at({0, h, i - 1, j - 1}), 1e-5);
                EXPECT_NEAR(plain.at({0, h, i, j}), plain.at({0, h, 0, 0}), 1e-5);
                varies |= std::fabs(rotated.at({0, h, i, j}) - rotated.at({0, h, i, 0})) > 1e-3f;
            }
    EXPECT_TRUE(varies);
}

// The trained-model lesson's slides run its model: the screens that pick the strongest head
// show the head the window picks.
TEST(LessonSlides, TheTrainedModelLessonRunsItsModel) {
    if (!bundledModelNames().contains(trainedModelLessonModel()))
        GTEST_SKIP() << "this build has no bundled model";
    const auto& screens = trainedModelLesson();
    const std::vector<Slide> slides = lessonSlides(screens, Settings());
    ASSERT_EQ(slides.size(), screens.size());
    for (size_t i = 0; i < slides.size(); ++i) {
        // A head's heatmap, named in the heading, only where the screen shows one.
        const bool steps = screens[i].page == QLatin1String("steps");
        EXPECT_EQ(slides[i].figure.isEmpty(), !steps) << i;
        EXPECT_EQ(slides[i].heading.contains(QStringLiteral("(layer ")), steps) << i;
    }
    // The induction screen: "its best induction score is only a little above what uniform
    // attention would give" (the mean over the second half of 1 / (i + 1)).
    for (const LessonScreen& screen : screens) {
        if (screen.pick != LessonHead::BestInduction)
            continue;
        const RequestResult r = runRequestOrThrow({lessonScreenSettings(screen, Settings()),
                                                   {},
                                                   loadModel(screen.model),
                                                   nullptr,
                                                   nullptr});
        const HeadScores scores = headScores(*r.model.run);
        ASSERT_FALSE(scores.induction.empty());
        const HeadPick best = highestScore(scores.induction, scores.heads);
        const int64_t T = r.model.run->tokens(), n = T / 2;
        double uniform = 0;
        for (int64_t i = n; i < T; ++i)
            uniform += 1.0 / double(i + 1) / double(n);
        EXPECT_GT(best.score, uniform);
        EXPECT_LT(best.score, 2 * uniform) << best.score << " " << uniform;
    }
    // The previous-token screen: layer 0 head 1 (MODEL.md).
    for (size_t i = 0; i < screens.size(); ++i) {
        if (screens[i].pick == LessonHead::BestPreviousToken) {
            EXPECT_TRUE(slides[i].heading.contains(QStringLiteral("(layer 0, head 1)")))
                << slides[i].heading.toStdString();
        }
    }
    // The sonnet as printed (the why lesson's text): every slide's loss line gives its loss,
    // 5.529 nats, not 7.983 for the lines made one.
    for (size_t i = 0; i < screens.size(); ++i) {
        if (screens[i].pick != LessonHead::BestInduction) {
            EXPECT_TRUE(slides[i].caption.contains(QStringLiteral("5.529")))
                << i << " " << slides[i].caption.toStdString();
        }
    }
    // "Layer steps" on layer 2, head 3: "most rows put nearly all their weight on one key ...
    // vertical stripes under compare, under the question mark and under the colon, and the
    // line breaks look back to to".
    const LessonScreen& steps = screens[1];
    ASSERT_EQ(steps.layer, 2);
    ASSERT_EQ(steps.head, 3);
    ASSERT_TRUE(steps.html.contains(QStringLiteral("under <i>compare</i>")));
    const RequestResult r = runRequestOrThrow(
        {lessonScreenSettings(steps, Settings()), {}, loadModel(steps.model), nullptr, nullptr});
    const DecoderRun& run = *r.model.run;
    const int64_t T = run.tokens();
    ASSERT_TRUE(run.attentionKept());
    const Tensor& w = run.attention;  // (L, H, T, T)
    const std::vector<Token> tokens = tokenize(TokenizerKind::Gpt2, steps.text.toStdString());
    ASSERT_EQ(int64_t(tokens.size()), T);
    std::map<std::string, int> stripe;  // rows whose strongest key is this token
    int breaksToTo = 0, breaks = 0, sharp = 0;
    for (int64_t i = 0; i < T; ++i) {
        int64_t best = 0;
        for (int64_t j = 1; j <= i; ++j)
            if (w.at({2, 3, i, j}) > w.at({2, 3, i, best}))
                best = j;
        ++stripe[tokens[size_t(best)].bytes];
        sharp += w.at({2, 3, i, best}) > 0.8f;
        if (tokens[size_t(i)].bytes == "\n") {
            ++breaks;
            breaksToTo += tokens[size_t(best)].bytes == " to";
        }
    }
    EXPECT_GE(stripe[" compare"], 8);
    EXPECT_GE(stripe["?"], 5);
    EXPECT_GE(stripe[":"], 8);
    EXPECT_EQ(breaks, 3);
    EXPECT_EQ(breaksToTo, 3);
    EXPECT_GT(2 * sharp, int(T));
}

// "Asking a model why" says what is true of its model: the head it names is the model's
// strongest previous-token head (as its fixture says), switching it off raises the sonnet's
// loss from 7.98 to 8.11 nats while the "idle" head changes it by 0.01, the numbers the screens
// quote; the repeated words are the checker's; every screen's slide runs, and only the screens
// that say so have heads switched off.
TEST(LessonSlides, TheWhyLessonSaysWhatIsTrueOfItsModel) {
    if (!bundledModelNames().contains(whyLessonModel()))
        GTEST_SKIP() << "this build has no bundled model";
    QFile f(QStringLiteral(ATTN_FIXTURES_DIR "/model/tiny_shakespeare_expected.json"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    const QJsonObject fixture = QJsonDocument::fromJson(f.readAll()).object();
    const QJsonArray prevScores = fixture[QStringLiteral("sonnet")]
                                      .toObject()[QStringLiteral("previous_token_scores")]
                                      .toArray();
    const HeadRef prev = whyLessonPreviousTokenHead(), idle = whyLessonIdleHead();
    double best = 0;
    for (const QJsonValue& row : prevScores)
        for (const QJsonValue& v : row.toArray())
            best = std::max(best, v.toDouble());
    EXPECT_EQ(prevScores[int(prev.layer)].toArray()[int(prev.head)].toDouble(), best);
    EXPECT_EQ(whyLessonRepeatedText(),
              fixture[QStringLiteral("circuit")].toObject()[QStringLiteral("text")].toString());

    const auto& screens = whyLesson();
    ASSERT_EQ(screens.size(), 6u);
    const auto whyModel = loadModel(whyLessonModel());
    const auto lossWith = [&](const LessonScreen& s) {
        Settings settings = lessonScreenSettings(s, Settings());
        const auto& model = whyModel;
        const RequestResult r = runRequestOrThrow({settings, {}, model, nullptr, nullptr});
        const std::vector<double> logp = tokenLogProbabilities(*r.model.run);
        double sum = 0;
        for (double v : logp)
            sum -= v;
        return sum / double(logp.size());
    };
    EXPECT_TRUE(screens[0].ablate.empty());
    EXPECT_EQ(screens[1].ablate, std::vector<HeadRef>{prev});
    EXPECT_EQ(screens[2].ablate, std::vector<HeadRef>{idle});
    const double on = lossWith(screens[0]), off = lossWith(screens[1]),
                 idleOff = lossWith(screens[2]);
    EXPECT_TRUE(screens[1].html.contains(
        QStringLiteral("from %1 to %2 nats").arg(on, 0, 'f', 2).arg(off, 0, 'f', 2)))
        << on << " " << off;
    EXPECT_TRUE(screens[2].html.contains(
        QStringLiteral("from %1 to %2 nats").arg(on, 0, 'f', 2).arg(idleOff, 0, 'f', 2)))
        << idleOff;
    EXPECT_GT(off - on, 0.1);
    EXPECT_LT(std::abs(idleOff - on), 0.02);
    // The sonnet as printed, line by line, as a student types it: with its line breaks made
    // spaces the loss was 7.98 and switching L0H0 off lowered it by 1.41 nats, unexplained.
    EXPECT_TRUE(screens[0].text.contains(QLatin1Char('\n')));
    EXPECT_TRUE(screens[0].text.startsWith(QStringLiteral("Shall I compare thee")));
    // "A few even lower the loss a little when switched off (L2H0: from 5.53 to 5.51)", and
    // no head lowers it by much.
    {
        LessonScreen s = screens[2];
        s.ablate = {HeadRef{2, 0}};
        const double lowered = lossWith(s);
        EXPECT_TRUE(screens[2].html.contains(
            QStringLiteral("L2H0: from %1 to %2").arg(on, 0, 'f', 2).arg(lowered, 0, 'f', 2)))
            << lowered;
        EXPECT_LT(lowered, on);
        for (int64_t l = 0; l < 4; ++l)
            for (int64_t h = 0; h < 4; ++h) {
                s.ablate = {HeadRef{l, h}};
                EXPECT_GT(lossWith(s), on - 0.1) << l << "." << h;
            }
    }
    // The first screen's head is the model's previous-token head on this text too.
    {
        const RequestResult r = runRequestOrThrow({lessonScreenSettings(screens[0], Settings()),
                                                   {},
                                                   loadModel(screens[0].model),
                                                   nullptr,
                                                   nullptr});
        const HeadPick best = strongestPreviousTokenHead(headScores(*r.model.run));
        EXPECT_EQ((HeadRef{best.layer, best.head}), prev);
    }
    // The logit lens screen's counts: columns whose top token a later layer changes, and how
    // often layer 0 and the last layer have the real next token on top.
    {
        const RequestResult r = runRequestOrThrow({lessonScreenSettings(screens[3], Settings()),
                                                   {},
                                                   loadModel(screens[3].model),
                                                   nullptr,
                                                   nullptr});
        const DecoderRun& run = *r.model.run;
        const LogitLens lens = logitLens(run, 1);
        const int64_t T = run.tokens();
        int changed = 0, right0 = 0, rightLast = 0;
        for (int64_t t = 0; t < T; ++t) {
            changed += lens.front()[size_t(t)][0].id != lens.back()[size_t(t)][0].id;
            if (t + 1 < T) {
                right0 += lens.front()[size_t(t)][0].id == run.ids[size_t(t + 1)];
                rightLast += lens.back()[size_t(t)][0].id == run.ids[size_t(t + 1)];
            }
        }
        EXPECT_TRUE(
            screens[3].html.contains(QStringLiteral("in %1 of the %2 columns").arg(changed).arg(T)))
            << changed << " of " << T;
        EXPECT_EQ(right0, rightLast);
        EXPECT_TRUE(screens[3].html.contains(QStringLiteral("(%1 times each)").arg(right0)))
            << right0;
    }
    // "Colour the Text view by each token's loss: the second half is no easier than the first."
    {
        const RequestResult r = runRequestOrThrow({lessonScreenSettings(screens[4], Settings()),
                                                   {},
                                                   loadModel(screens[4].model),
                                                   nullptr,
                                                   nullptr});
        const std::vector<double> logp = tokenLogProbabilities(*r.model.run);
        const size_t n = (logp.size() + 1) / 2;  // logp[i]: token i + 1
        double first = 0, second = 0;
        for (size_t i = 0; i + 1 < n; ++i)
            first -= logp[i] / double(n - 1);
        for (size_t i = n - 1; i < logp.size(); ++i)
            second -= logp[i] / double(logp.size() - n + 1);
        EXPECT_GE(second, first) << first << " " << second;
    }
    EXPECT_EQ(screens[3].page, QStringLiteral("lens"));
    EXPECT_EQ(screens[4].text, whyLessonRepeatedText());
    EXPECT_EQ(screens[4].pick, LessonHead::BestInduction);
    // No head stays off after the screens that switch one off.
    EXPECT_TRUE(lessonScreenSettings(screens[3], lessonScreenSettings(screens[2], Settings()))
                    .ablation.empty());
    const std::vector<Slide> slides = lessonSlides(screens, Settings());
    ASSERT_EQ(slides.size(), screens.size());
    for (size_t i = 0; i < slides.size(); ++i) {
        EXPECT_EQ(slides[i].figure.isEmpty(), screens[i].page != QLatin1String("steps")) << i;
        // "the head's own pattern is still drawn, crossed out": on the slide too, and only
        // where the head shown is one the screen switches off.
        const bool off =
            screens[i].page == QLatin1String("steps") &&
            std::any_of(screens[i].ablate.begin(), screens[i].ablate.end(), [&](const HeadRef& r) {
                return slides[i].heading.contains(
                    QStringLiteral("(layer %1, head %2)").arg(r.layer).arg(r.head));
            });
        EXPECT_EQ(slides[i].switchedOff, off) << i;
    }
    EXPECT_TRUE(slides[1].switchedOff);  // "Switch it off": L0H1, shown
}

// "How a model copies" runs on tiny-circuit's circuit as its fixture (PyTorch) finds it: the same
// two heads and text, the induction stripe and the loss with and without the previous-token head
// as the app computes them, written into the screens that state them.
TEST(LessonSlides, TheCopyLessonSaysWhatIsTrueOfItsModel) {
    if (!bundledModelNames().contains(copyLessonModel()))
        GTEST_SKIP() << "this build has no tiny-circuit";
    QFile f(QStringLiteral(ATTN_FIXTURES_DIR "/model/tiny_circuit_expected.json"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    const QJsonObject circuit =
        QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("circuit")].toObject();
    const auto headAt = [&](const char* key) {
        const QJsonArray a = circuit[QLatin1String(key)].toArray();
        return HeadRef{a[0].toInteger(), a[1].toInteger()};
    };
    const HeadRef prev = copyLessonPreviousTokenHead(), ind = copyLessonInductionHead();
    EXPECT_EQ(prev, headAt("previous_token_head"));
    EXPECT_EQ(ind, headAt("induction_head"));
    EXPECT_EQ(copyLessonRepeatedText(), circuit[QStringLiteral("text")].toString());

    const auto& screens = copyLesson();
    ASSERT_EQ(screens.size(), 5u);
    for (size_t i = 0; i < screens.size(); ++i) {
        EXPECT_EQ(screens[i].model, copyLessonModel()) << i;
        EXPECT_EQ(screens[i].text, copyLessonRepeatedText()) << i;
        EXPECT_EQ(screens[i].ablate, i == 2 ? std::vector<HeadRef>{prev} : std::vector<HeadRef>{})
            << i;
    }
    EXPECT_EQ(screens[0].layer, ind.layer);
    EXPECT_EQ(screens[0].head, ind.head);
    EXPECT_EQ(screens[1].layer, prev.layer);
    EXPECT_EQ(screens[1].head, prev.head);
    EXPECT_EQ(screens[3].page, QStringLiteral("lens"));
    EXPECT_EQ(screens[4].page, QStringLiteral("scores"));

    // The app's own numbers for the screen's state: the loss and the induction head's mean weight
    // on the token after the earlier copy of each second-half token.
    struct Numbers {
        double loss, stripe;
    };
    const auto numbers = [&](const LessonScreen& s) {
        const Settings settings = lessonScreenSettings(s, Settings());
        const RequestResult r =
            runRequestOrThrow({settings, {}, loadModel(s.model), nullptr, nullptr});
        const DecoderRun& run = *r.model.run;
        const std::vector<double> logp = tokenLogProbabilities(run);
        double loss = 0;
        for (double v : logp)
            loss -= v / double(logp.size());
        const Tensor att = layerAttention(run, ind.layer);
        const int64_t T = run.tokens(), n = T / 2;
        double stripe = 0;
        for (int64_t t = n; t < T; ++t)
            stripe += att.data()[(ind.head * T + t) * T + (t - n + 1)] / double(n);
        return Numbers{loss, stripe};
    };
    const Numbers on = numbers(screens[0]), off = numbers(screens[2]);
    // The last screen's claim: on this text the two heads lead their columns of Head scores.
    {
        const RequestResult r = runRequestOrThrow({lessonScreenSettings(screens[4], Settings()),
                                                   {},
                                                   loadModel(copyLessonModel()),
                                                   nullptr,
                                                   nullptr});
        const DecoderRun& run = *r.model.run;
        const HeadScores scores = headScores(run);
        const std::vector<double>& induction = scores.induction;  // the text is said twice
        const auto best = [&](const std::vector<double>& v) {
            const auto i = int64_t(std::max_element(v.begin(), v.end()) - v.begin());
            return HeadRef{i / scores.heads, i % scores.heads};
        };
        EXPECT_EQ(best(scores.previousToken), prev);
        EXPECT_EQ(best(induction), ind);
        // The logit-lens screen's claim: in the second half the copied word is on top after
        // layer 1, not after layer 0.
        const LogitLens lens = logitLens(run, 1);
        const std::vector<int64_t> ids = run.ids;
        const int64_t T = run.tokens(), n = T / 2;
        int after0 = 0, after1 = 0;
        for (int64_t t = n; t + 1 < T; ++t) {
            after0 += lens[0][size_t(t)][0].id == ids[size_t(t + 1)];
            after1 += lens[1][size_t(t)][0].id == ids[size_t(t + 1)];
        }
        EXPECT_LE(after0, 1);
        EXPECT_EQ(after1, n - 1);
    }
    // The last screen's claims, on the texts it names: written without a space first, the two
    // halves differ in their first token and the repeat is found without it; with the space,
    // the circuit's induction head copies that sentence weakly and another head leads.
    {
        const auto model = loadModel(copyLessonModel());
        const auto scoresOf = [&](const char* text) {
            Settings settings = lessonScreenSettings(screens[4], Settings());
            settings.text = QString::fromUtf8(text);
            const RequestResult r = runRequestOrThrow({settings, {}, model, nullptr, nullptr});
            return headScores(*r.model.run);
        };
        const HeadScores noSpace = scoresOf("The cat sat. The cat sat.");
        ASSERT_FALSE(noSpace.induction.empty());
        EXPECT_EQ(noSpace.repeat.first, noSpace.repeat.period + 1);  // not the second "The"
        EXPECT_TRUE(
            screens[4].html.contains(QStringLiteral("the page finds where the text repeats")));
        const HeadScores cat = scoresOf(" The cat sat on the mat. The cat sat on the mat.");
        ASSERT_FALSE(cat.induction.empty());
        const auto two = [](double v) { return QString::number(v, 'f', 2); };
        const double indScore = cat.at(cat.induction, ind.layer, ind.head);
        const HeadPick lead = highestScore(cat.induction, cat.heads);
        EXPECT_TRUE(
            screens[4].html.contains(QStringLiteral("L%1H%2 scores %3 and L%4H%5 leads with %6")
                                         .arg(ind.layer)
                                         .arg(ind.head)
                                         .arg(two(indScore))
                                         .arg(lead.layer)
                                         .arg(lead.head)
                                         .arg(two(lead.score))))
            << indScore << " L" << lead.layer << "H" << lead.head << " " << lead.score;
        EXPECT_FALSE(screens[4].html.contains(QStringLiteral("any sentence twice")));
    }
    const auto two = [](double v) { return QString::number(v, 'f', 2); };
    EXPECT_TRUE(screens[0].html.contains(QStringLiteral("is %1").arg(two(on.stripe)))) << on.stripe;
    EXPECT_TRUE(screens[2].html.contains(
        QStringLiteral("from %1 to %2").arg(two(on.stripe), two(off.stripe))))
        << off.stripe;
    EXPECT_TRUE(screens[2].html.contains(
        QStringLiteral("from %1 to %2 nats").arg(two(on.loss), two(off.loss))))
        << on.loss << " " << off.loss;
    // "the second half turns red (15 of its 16 tokens ...)": the tokens of the second half
    // whose loss rises with the previous-token head off.
    {
        const auto runOf = [&](const LessonScreen& s) {
            return runRequestOrThrow({lessonScreenSettings(s, Settings()),
                                      {},
                                      loadModel(s.model),
                                      nullptr,
                                      nullptr})
                .model;
        };
        const ModelRun off2 = runOf(screens[2]);
        ASSERT_NE(off2.baseline, nullptr);
        const TextLoss loss = textLoss(*off2.run, off2.baseline.get());
        const size_t n = (loss.tokenLosses.size() + 1) / 2;  // tokenLosses[i]: token i + 1
        int redder = 0;
        for (size_t i = n - 1; i < loss.tokenLosses.size(); ++i)
            redder += loss.tokenLosses[i] > loss.tokenLossesBefore[i];
        EXPECT_TRUE(screens[2].html.contains(QStringLiteral("turns red (%1 of its %2 tokens")
                                                 .arg(redder)
                                                 .arg(loss.tokenLosses.size() - n + 1)))
            << redder;
        // The one that does not: the second half's first word, which nothing before it
        // announces.
        EXPECT_LE(loss.tokenLosses[n - 1], loss.tokenLossesBefore[n - 1]);
    }
    EXPECT_GE(on.stripe, 0.5);
    EXPECT_LE(off.stripe, on.stripe / 2);
    EXPECT_GT(off.loss, on.loss + 0.5);
    const std::vector<Slide> slides = lessonSlides(screens, Settings());
    ASSERT_EQ(slides.size(), screens.size());
    for (size_t i = 0; i < slides.size(); ++i)
        EXPECT_EQ(slides[i].figure.isEmpty(), screens[i].page != QLatin1String("steps")) << i;
}

TEST(Lesson, ScreensFormAValidSequence) {
    const auto& screens = chapter3Lesson();
    ASSERT_GE(screens.size(), 12u);
    QString lastSection;
    for (size_t i = 0; i < screens.size(); ++i) {
        const LessonScreen& s = screens[i];
        SCOPED_TRACE(std::to_string(i) + " " + s.title.toStdString());
        EXPECT_FALSE(s.title.isEmpty());
        EXPECT_FALSE(s.html.isEmpty());
        // A chapter-3 screen runs on the book's six vectors.
        EXPECT_EQ(lessonScreenSettings(s, Settings()).source, InputSource::Book);
        EXPECT_TRUE(validate(s.config, 6).empty());
        bool found = false;
        for (const StepInfo& st : planSteps(s.config, 6))
            found = found || st.id == s.stepId;
        EXPECT_TRUE(found) << s.stepId;
        EXPECT_LT(s.head, int(s.config.effectiveHeads()));
        EXPECT_LT(s.batch, int(s.config.batch));
        // Sections never go backwards: 3.3 -> 3.6.2.
        EXPECT_GE(s.section, lastSection);
        lastSection = s.section;
        // It runs, and the step it shows has an explanation.
        const Trace t = testing::bookTrace(s.config);
        ASSERT_NE(t.find(s.stepId), nullptr);
        EXPECT_FALSE(explainStepHtml(t, s.stepId).isEmpty());
    }
    // The book's seeds and sizes.
    EXPECT_EQ(screens.front().config.variant, Variant::Simplified);
    EXPECT_EQ(screens.back().config.variant, Variant::MultiHead);
    EXPECT_EQ(screens.back().config.seed, 123u);
    EXPECT_EQ(screens.back().config.batch, 2);
    EXPECT_EQ(screens.back().config.heads, 2);
    EXPECT_EQ(screens.back().config.dOut, 2);
    bool v1 = false, v2 = false, drop = false, wrapper = false, simple = false;
    for (const LessonScreen& s : screens) {
        v1 = v1 || (s.config.variant == Variant::SelfAttentionV1 && s.config.seed == 123);
        v2 = v2 || (s.config.variant == Variant::SelfAttention && s.config.seed == 789);
        drop = drop ||
               (s.config.dropout == 0.5 && s.config.seed == 123 && s.stepId == "dropped_weights");
        wrapper =
            wrapper || (s.config.variant == Variant::MultiHeadWrapper && s.config.seed == 123);
        simple = simple || s.stepId == "weights_renormalized";
    }
    EXPECT_TRUE(v1 && v2 && drop && wrapper && simple);
}

TEST(Lesson, PanelStepsThroughScreens) {
    LessonPanel panel;
    const int n = panel.count();
    ASSERT_EQ(n, int(chapter3Lesson().size()));
    EXPECT_EQ(panel.currentIndex(), 0);
    EXPECT_EQ(panel.progressText(), QStringLiteral("1 / %1").arg(n));
    QSignalSpy changed(&panel, &LessonPanel::screenChanged);
    QSignalSpy finished(&panel, &LessonPanel::finished);
    panel.next();
    panel.next();
    EXPECT_EQ(panel.currentIndex(), 2);
    EXPECT_EQ(panel.progressText(), QStringLiteral("3 / %1").arg(n));
    ASSERT_EQ(changed.count(), 2);
    const auto screen = changed.at(1).at(0).value<LessonScreen>();
    EXPECT_EQ(screen.stepId, chapter3Lesson()[2].stepId);
    panel.back();
    EXPECT_EQ(panel.currentIndex(), 1);
    panel.setCurrentIndex(n + 5);
    EXPECT_EQ(panel.currentIndex(), n - 1);
    panel.next();
    EXPECT_EQ(finished.count(), 1);
    panel.restart();
    EXPECT_EQ(panel.currentIndex(), 0);

    panel.setCurrentIndex(11);
    panel.resize(460, 380);
    EXPECT_TRUE(testing::savePng(&panel, QStringLiteral("lesson_panel.png")));
}

// In presentation mode the lesson panel is about 330 x 700 pixels of a 1280 x 720 projector, its
// text asked for 1.6 times larger: every screen of every lesson shows all its text without
// scrolling (the dropout note and the trained-model texts were cut off after a few lines),
// as large as fits and never smaller than the window's own text.
TEST(Lesson, EveryScreensTextFitsThePresentationPanel) {
    LessonPanel panel;
    panel.resize(330, 700);
    panel.show();
    auto* text = panel.findChild<QTextBrowser*>();
    ASSERT_NE(text, nullptr);
    const double appPoints = QApplication::font().pointSizeF();
    for (LessonKind kind : {LessonKind::Chapter3, LessonKind::TrainedModel,
                            LessonKind::AfterChapter3, LessonKind::Why, LessonKind::Copies}) {
        panel.setScreens(lessonScreens(kind));
        panel.setFontScale(1.6);
        double smallest = 1.6;
        for (int i = 0; i < panel.count(); ++i) {
            panel.setCurrentIndex(i);
            QApplication::processEvents();
            SCOPED_TRACE(panel.currentScreen().title.toStdString());
            EXPECT_EQ(text->verticalScrollBar()->maximum(), 0);
            EXPECT_GE(text->font().pointSizeF(), appPoints - 1e-6);
            smallest = std::min(smallest, text->font().pointSizeF() / appPoints);
        }
        // Short screens keep the projector's size.
        panel.setCurrentIndex(0);
        EXPECT_GT(smallest, 0.99);
    }
    // In the window (scale 1) nothing shrinks: the box scrolls as before.
    panel.setFontScale(1.0);
    EXPECT_NEAR(text->font().pointSizeF(), appPoints, 1e-6);
}

// The After chapter 3 lesson ends on a trained model of today's family: the bundled Llama, or
// the model the user has open; an installation without the Llama ends on the modules.
TEST(Lesson, AfterChapter3EndsOnATrainedModelOfTodaysFamily) {
    const auto& all = afterChapter3Lesson();
    ASSERT_GE(all.size(), 3u);
    EXPECT_EQ(all.back().model, QStringLiteral("tiny-shakespeare-llama"));
    EXPECT_EQ(all.back().stepId, "keys_repeated");
    EXPECT_EQ(all[all.size() - 2].page, QStringLiteral("overview"));
    EXPECT_TRUE(all.back().html.contains(QStringLiteral("Open model folder")));
    // No screen sends the student to another lesson for the trained model this one ends on.
    for (const LessonScreen& screen : all)
        EXPECT_FALSE(screen.html.contains(QStringLiteral("Attention in a trained model")))
            << screen.title.toStdString();
    ASSERT_TRUE(bundledModelNames().contains(QStringLiteral("tiny-shakespeare-llama")));
    EXPECT_EQ(afterChapter3LessonOn(QString()).back().model,
              QStringLiteral("tiny-shakespeare-llama"));
    const auto mine = afterChapter3LessonOn(QStringLiteral("/models/Qwen3-0.6B"));
    ASSERT_EQ(mine.size(), all.size());
    EXPECT_EQ(mine.back().model, QStringLiteral("/models/Qwen3-0.6B"));
    EXPECT_EQ(mine[mine.size() - 2].model, QStringLiteral("/models/Qwen3-0.6B"));
    EXPECT_TRUE(mine.front().model.isEmpty());  // the modules stay the modules
    const QByteArray saved = qgetenv("ATTN_MODEL_DIR");
    qputenv("ATTN_MODEL_DIR", "/nonexistent");
    const auto without = afterChapter3LessonOn(QString());
    qputenv("ATTN_MODEL_DIR", saved);
    if (saved.isEmpty())
        qunsetenv("ATTN_MODEL_DIR");
    EXPECT_EQ(without.size(), all.size() - 2);
    EXPECT_TRUE(without.back().model.isEmpty());
}

TEST(Lesson, TrainedModelScreensRunOnTheBundledModelWithTextsItCanRead) {
    QFile f(QStringLiteral(ATTN_FIXTURES_DIR "/model/tiny_shakespeare_expected.json"));
    ASSERT_TRUE(f.open(QIODevice::ReadOnly)) << f.fileName().toStdString();
    const QJsonArray sonnetIds = QJsonDocument::fromJson(f.readAll())
                                     .object()[QStringLiteral("sonnet")]
                                     .toObject()[QStringLiteral("ids")]
                                     .toArray();
    const auto& screens = trainedModelLesson();
    ASSERT_EQ(screens.size(), 7u);
    bool previousToken = false;
    bool induction = false;
    for (size_t i = 0; i < screens.size(); ++i) {
        const LessonScreen& s = screens[i];
        SCOPED_TRACE(std::to_string(i) + " " + s.title.toStdString());
        EXPECT_EQ(s.model, QStringLiteral("tiny-shakespeare"));
        EXPECT_FALSE(s.title.isEmpty());
        EXPECT_FALSE(s.html.isEmpty());
        EXPECT_TRUE(QStringList({"steps", "overview", "scores"}).contains(s.page))
            << s.page.toStdString();
        // The model has 4 layers of 4 heads and a context of 256 tokens.
        EXPECT_GE(s.layer, 0);
        EXPECT_LT(s.layer, 4);
        EXPECT_LT(s.head, 4);
        const std::vector<Token> tokens = tokenize(TokenizerKind::Gpt2, s.text.toStdString());
        EXPECT_GE(tokens.size(), 16u);
        EXPECT_LE(tokens.size(), 256u);
        // The sonnet's screens read it in the form the model was trained on, verse in lines:
        // its tokens are the first ones of the sonnet's file (as the model's fixture reads it),
        // not " Thou" where the file has "\n", "Th", "ou".
        if (s.pick != LessonHead::BestInduction) {
            ASSERT_LE(tokens.size(), size_t(sonnetIds.size()));
            for (size_t k = 0; k < tokens.size(); ++k)
                EXPECT_EQ(tokens[k].id, sonnetIds[int(k)].toInteger()) << k;
        }
        previousToken = previousToken || s.pick == LessonHead::BestPreviousToken;
        if (s.pick == LessonHead::BestInduction) {
            induction = true;
            // The induction text is one list of tokens said twice: its period is half its length.
            ASSERT_EQ(tokens.size() % 2, 0u);
            const size_t half = tokens.size() / 2;
            for (size_t k = 0; k < half; ++k)
                EXPECT_EQ(tokens[k].id, tokens[k + half].id) << k;
        }
    }
    EXPECT_TRUE(previousToken);
    EXPECT_TRUE(induction);
    // The block's steps are shown on one screen: the strip's block_output exists in model mode.
    EXPECT_EQ(screens[5].stepId, "block_output");

    LessonPanel panel;
    panel.setScreens(screens);
    panel.setCurrentIndex(2);
    EXPECT_EQ(panel.progressText(), QStringLiteral("3 / 7"));
}

}  // namespace
}  // namespace attn
