// FormatYaml on explanations built by hand: which line gets which comment,
// and that the comments change nothing a YAML reader sees.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "explain/chains.h"
#include "explain/formats.h"
#include "explain/palette.h"
#include "json/json.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::explain {
namespace {

doc::Node Json(std::string_view text) {
  auto node = json::Read(text, "object.json");
  EXPECT_TRUE(node.ok()) << node.error().ToString();
  return node.ok() ? *node : doc::Node();
}

Location At(std::uint32_t line, std::uint32_t column) {
  return {InternSourceName("tj.yaml"), line, column};
}

enum : std::size_t { kRuntime, kPatch, kPlugin, kBuilder };

Explanation WithLayers() {
  Explanation explanation;
  explanation.subject = "TrainJob ml/llama";
  explanation.target = "trainer-v2.3";
  explanation.layers = {{LayerKind::kRuntime, "runtime", At(1, 1)},
                        {LayerKind::kPatch, "runtimePatches[kueue.x-k8s.io/manager]", At(30, 5)},
                        {LayerKind::kPlugin, "plugin torch", {}},
                        {LayerKind::kBuilder, "builder", {}}};
  return explanation;
}

Step Set(std::size_t layer, Location at = {}, std::string detail = {}) {
  Step step;
  step.layer = layer;
  step.location = at;
  step.detail = std::move(detail);
  return step;
}

Field Present(std::string path, std::vector<Step> chain) {
  Field field;
  field.path = std::move(path);
  field.chain = std::move(chain);
  return field;
}

// What FormatYaml's text is with its comments taken out: each "# deleted"
// line, and each line's trailing comment (the test values hold no "  #").
std::string WithoutComments(const std::string& text) {
  std::string out;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    const std::size_t colour_end = line.starts_with("\033[") ? line.find('m') + 1 : 0;
    if (line.compare(colour_end, 11, "# deleted: ") == 0) continue;
    std::size_t cut = std::min(line.find("  # "), line.find("  \033["));
    if (cut != std::string::npos) line.resize(cut);
    out += line + "\n";
  }
  return out;
}

std::vector<doc::Node> Objects(const Explanation& explanation) {
  std::vector<doc::Node> objects;
  for (const ObjectExplanation& object : explanation.objects) objects.push_back(object.object);
  return objects;
}

// The essential property: without the comments the text is `render`'s,
// byte for byte, and with them it reads back as the same objects. (Not
// when coloured: YAML allows no escape byte, even in a comment.)
void ExpectTransparent(const Explanation& explanation) {
  const std::vector<doc::Node> objects = Objects(explanation);
  EXPECT_EQ(WithoutComments(FormatYaml(explanation, {.color = true})), yaml::WriteStream(objects));
  const std::string text = FormatYaml(explanation);
  EXPECT_EQ(WithoutComments(text), yaml::WriteStream(objects));
  auto read = yaml::ReadStream(text, "explain.yaml");
  ASSERT_TRUE(read.ok()) << read.error().ToString() << "\n" << text;
  ASSERT_EQ(read->size(), objects.size()) << text;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    EXPECT_TRUE((*read)[i] == objects[i]) << "object " << i << ":\n" << text;
  }
}

// A JobSet as a TrainJob render leaves it, with a chain for most nodes.
Explanation JobSetExplanation() {
  Explanation explanation = WithLayers();
  ObjectExplanation object;
  object.object = Json(R"({
    "apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
    "metadata": {"name": "llama", "labels": {"app.kubernetes.io/name": "llama"}},
    "spec": {"replicatedJobs": [{"name": "node", "template": {"spec": {"containers": [{
      "name": "main", "image": "pytorch:2.5", "args": ["--a", "--b"],
      "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "x"},
              {"name": "C", "value": "y"}]}]}}}]}})");
  const std::string container = "spec.replicatedJobs[name=node].template.spec.containers[name=main]";
  object.fields = {
      Present("", {Set(kBuilder)}),
      Present("apiVersion", {Set(kBuilder)}),
      Present("kind", {Set(kBuilder)}),
      Present("metadata", {Set(kBuilder)}),
      Present("metadata.name", {Set(kBuilder, {}, "from the TrainJob's name")}),
      Present("metadata.labels", {Set(kRuntime)}),
      Present("metadata.labels[app.kubernetes.io/name]", {Set(kRuntime, At(3, 5))}),
      Present("spec", {Set(kRuntime)}),
      Present("spec.replicatedJobs", {Set(kRuntime)}),
      Present("spec.replicatedJobs[name=node]", {Set(kRuntime)}),
      Present("spec.replicatedJobs[name=node].name", {Set(kRuntime, At(10, 11))}),
      Present("spec.replicatedJobs[name=node].template", {Set(kRuntime)}),
      Present("spec.replicatedJobs[name=node].template.spec", {Set(kRuntime)}),
      Present("spec.replicatedJobs[name=node].template.spec.containers", {Set(kRuntime)}),
      Present(container, {Set(kRuntime)}),
      Present(container + ".name", {Set(kRuntime)}),
      Present(container + ".image", {Set(kRuntime, At(14, 18)), Set(kPatch, At(31, 17))}),
      Present(container + ".args", {Set(kPlugin, {}, "from spec.trainer.numProcPerNode")}),
      Present(container + ".env", {Set(kRuntime)}),
      Present(container + ".env[name=A]", {Set(kRuntime)}),
      Present(container + ".env[name=A].name", {Set(kRuntime)}),
      Present(container + ".env[name=A].value", {Set(kRuntime)}),
      Present(container + ".env[name=B]", {Set(kPlugin)}),
      Present(container + ".env[name=B].name", {Set(kPlugin)}),
      Present(container + ".env[name=B].value", {Set(kPatch, At(35, 20))}),
      // An item only recorded whole: its own line says so, its values are
      // silent.
      Present(container + ".env[name=C]", {Set(kPlugin)}),
  };
  Field deleted;
  deleted.path = container + ".resources";
  deleted.present = false;
  deleted.chain = {Set(kRuntime, At(16, 9)), Set(kPatch, At(33, 9))};
  deleted.chain[0].value = Json(R"({"limits": {"cpu": 1}})");
  deleted.chain[1].action = Action::kDeleted;
  object.fields.push_back(deleted);
  explanation.objects.push_back(object);
  return explanation;
}

TEST(YamlFormatTest, CommentsNameTheStepThatWroteEachValue) {
  EXPECT_EQ(FormatYaml(JobSetExplanation()),
            "apiVersion: jobset.x-k8s.io/v1alpha2  # builder\n"
            "kind: JobSet  # builder\n"
            "metadata:\n"
            "  labels:  # runtime\n"
            "    app.kubernetes.io/name: llama  # runtime tj.yaml:3:5\n"
            "  name: llama  # builder (from the TrainJob's name)\n"
            "spec:  # runtime\n"
            "  replicatedJobs:\n"
            "  - name: node  # runtime tj.yaml:10:11\n"
            "    template:\n"
            "      spec:\n"
            "        containers:\n"
            "        - args:\n"
            "          - --a\n"
            "          - --b  # plugin torch (from spec.trainer.numProcPerNode)\n"
            "          env:\n"
            "          - name: A  # runtime\n"
            "            value: \"1\"  # runtime\n"
            "          - name: B  # plugin torch\n"
            "            value: x  # runtimePatches[kueue.x-k8s.io/manager] tj.yaml:35:20\n"
            "          - name: C  # plugin torch\n"
            "            value: \"y\"\n"
            "          image: pytorch:2.5  # runtimePatches[kueue.x-k8s.io/manager] tj.yaml:31:17\n"
            "          name: main  # runtime\n"
            "# deleted: spec.replicatedJobs[name=node].template.spec.containers[name=main].resources: "
            "{\"limits\":{\"cpu\":1}} (deleted by runtimePatches[kueue.x-k8s.io/manager] tj.yaml:33:9)\n");
}

TEST(YamlFormatTest, JobSetWithoutCommentsIsTheRenderedYaml) {
  ExpectTransparent(JobSetExplanation());
}

// Scalars over several lines: a literal block's comment on its header, a
// folded scalar's on its last line, none inside either; "---" between
// objects, each object's deletions after it.
TEST(YamlFormatTest, MultiLineScalarsAndSeveralObjects) {
  Explanation explanation = WithLayers();
  std::string words;
  for (int i = 0; i < 20; ++i) words += "word ";
  words += "end";
  ObjectExplanation config;
  config.object = doc::Node::Mapping();
  config.object.Set("kind", doc::Node::String("ConfigMap"));
  doc::Node data = doc::Node::Mapping();
  data.Set("script.sh", doc::Node::String("echo a\necho b\n"));
  data.Set("long", doc::Node::String(words));
  data.Set("lines", doc::Node::Sequence());
  data.FindMutable("lines")->push_back(doc::Node::String("one"));
  data.FindMutable("lines")->push_back(doc::Node::String("two\nlines"));
  config.object.Set("data", data);
  config.fields = {Present("kind", {Set(kBuilder)}),
                   Present("data", {Set(kRuntime)}),
                   Present("data[script.sh]", {Set(kRuntime, At(40, 3))}),
                   Present("data.long", {Set(kPatch, At(41, 9))}),
                   Present("data.lines", {Set(kPlugin)})};
  ObjectExplanation second;
  second.object = Json(R"({"kind": "Service", "spec": {}})");
  second.fields = {Present("kind", {Set(kBuilder)}), Present("spec", {Set(kRuntime)})};
  explanation.objects = {config, second};

  EXPECT_EQ(FormatYaml(explanation),
            "data:  # runtime\n"
            "  lines:\n"
            "  - one\n"
            "  - |-  # plugin torch\n"
            "    two\n"
            "    lines\n"
            "  long: word word word word word word word word word word word word word word word\n"
            "    word word word word word end  # runtimePatches[kueue.x-k8s.io/manager] tj.yaml:41:9\n"
            "  script.sh: |  # runtime tj.yaml:40:3\n"
            "    echo a\n"
            "    echo b\n"
            "kind: ConfigMap  # builder\n"
            "---\n"
            "kind: Service  # builder\n"
            "spec: {}  # runtime\n");
  ExpectTransparent(explanation);
}

// Every node of `object` explained, paths as the chains engine makes them:
// the object by the builder, then the patch and the plugin by turns at
// each depth, so that every mapping and list differs from its parent and
// asks for a comment on the line that opens it.
ObjectExplanation EveryNodeExplained(const doc::Node& object, const std::string& detail) {
  ObjectExplanation explanation;
  explanation.object = object;
  WalkFields(object, [&](const std::string& path, const doc::Node&, const std::string*, std::size_t) {
    std::size_t depth = 0;
    for (char c : path) depth += c == '.' || c == '[';
    const std::size_t layer = path.empty() ? kBuilder : depth % 2 == 0 ? kPatch : kPlugin;
    explanation.fields.push_back(Present(path, {Set(layer, {}, detail)}));
  });
  return explanation;
}

// Where a comment could change what the text reads as: complex keys that
// fold, a list item whose first value folds, quoted scalars over several
// lines, lists in lists, and a detail full of line breaks and controls.
TEST(YamlFormatTest, TrickyTreesReadBackTheSame) {
  std::string folded;
  for (int i = 0; i < 15; ++i) folded += "fold me ";
  const std::string long_key = folded + folded + "key";  // a complex key, folded
  const std::string hostile = "line\nbreak\r\xC2\x85nel \xE2\x80\xA8ls \033[31m esc \x7F del \xFF bad";
  doc::Node item = doc::Node::Mapping();
  item.Set(long_key, doc::Node::Int(1));
  item.Set("zz", doc::Node::String("x"));
  doc::Node folded_item = doc::Node::Mapping();
  folded_item.Set("a", doc::Node::String(folded));
  folded_item.Set("b", doc::Node::String(" lead and trail " + folded + " "));
  doc::Node object = Json(R"({"nested": [[1, [2, {"k": "v"}]], [], {}], "mixed": ["s", {"name": "n"}],
                              "empty": {"m": {}, "l": []}, "quoted": "'yes'", "null": null})");
  doc::Node list = doc::Node::Sequence();
  list.push_back(item);
  list.push_back(folded_item);
  list.push_back(doc::Node::String(long_key + "\n" + long_key));
  object.Set("list", list);
  object.Set(long_key, doc::Node::String(folded));
  object.Set(long_key + " map", Json(R"({"inner": [1, 2]})"));
  object.Set("multi\nline key", Json(R"({"inner": "x"})"));
  object.Set("dq", doc::Node::String("\t" + folded + "\x01"));

  Explanation explanation = WithLayers();
  explanation.layers[kPlugin].name = hostile;
  explanation.objects = {EveryNodeExplained(object, "patched"),
                         EveryNodeExplained(Json(R"({"a": "b"})"), hostile)};
  Field deleted = Present("gone", {Set(kRuntime), Set(kPlugin, {}, hostile)});
  deleted.chain[0].value = doc::Node::String(hostile + std::string(200, 'x'));
  deleted.chain[1].action = Action::kDeleted;
  deleted.present = false;
  explanation.objects[1].fields.push_back(deleted);

  ExpectTransparent(explanation);
  // The hostile text is escaped: one line per comment, no control bytes.
  const std::string text = FormatYaml(explanation);
  const std::string escaped = "line\\x0Abreak\\x0D\\u0085nel \\u2028ls \\x1B[31m esc \\x7F del \\xFF bad";
  EXPECT_NE(text.find("\n  l: []  # " + escaped + " (patched)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\na: b  # runtimePatches[kueue.x-k8s.io/manager] (" + escaped + ")\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(" (deleted by " + escaped + " (" + escaped + "))\n"), std::string::npos) << text;
  EXPECT_EQ(text.find('\033'), std::string::npos);
}

TEST(YamlFormatTest, ColourByLayerKindResetAtTheEndOfTheLine) {
  const std::string text = FormatYaml(JobSetExplanation(), {.color = true});
  EXPECT_NE(text.find("  image: pytorch:2.5  \033[33m# runtimePatches[kueue.x-k8s.io/manager] "
                      "tj.yaml:31:17\033[0m\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("kind: JobSet  \033[32m# builder\033[0m\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n\033[33m# deleted: "), std::string::npos) << text;
  EXPECT_EQ(FormatYaml(JobSetExplanation()).find('\033'), std::string::npos);
}

TEST(YamlFormatTest, EightColoursOnePerGroupOfKinds) {
  const LayerKind kinds[] = {LayerKind::kRuntime,
                             LayerKind::kDefault,
                             LayerKind::kTypedRoundTrip,
                             LayerKind::kOverride,
                             LayerKind::kPatch,
                             LayerKind::kPlugin,
                             LayerKind::kBuilder,
                             LayerKind::kFlyteDefaultTemplate,
                             LayerKind::kFlytePrimaryTemplate,
                             LayerKind::kFlyteTask,
                             LayerKind::kFlytePluginConfig,
                             LayerKind::kFlyteTaskResources,
                             LayerKind::kFlyteExecutionOverrides,
                             LayerKind::kFlytePropeller};
  std::set<std::string> colours;
  for (LayerKind kind : kinds) colours.insert(LayerColour(kind));
  EXPECT_EQ(colours.size(), 8u);
  EXPECT_STREQ(LayerColour(LayerKind::kOverride), LayerColour(LayerKind::kPatch));
  EXPECT_STRNE(LayerColour(LayerKind::kRuntime), LayerColour(LayerKind::kDefault));
}

// A value with no field, or a field with an empty chain, gets no comment;
// a step naming no layer is written uncoloured.
TEST(YamlFormatTest, ValuesWithoutAChainAreLeftAlone) {
  Explanation explanation = WithLayers();
  ObjectExplanation object;
  object.object = Json(R"({"a": 1, "b": 2, "c": 3})");
  object.fields = {Present("a", {}), Present("c", {Set(99, At(1, 2))})};
  explanation.objects.push_back(object);
  EXPECT_EQ(FormatYaml(explanation, {.color = true}),
            "a: 1\nb: 2\nc: 3  # " + DescribeStep(explanation, object.fields[1].chain[0]) + "\n");
}

}  // namespace
}  // namespace tjr::explain
