#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "explain/formats.h"
#include "json/json.h"
#include "yaml/writer.h"

namespace tjr::explain {
namespace {

using doc::Node;

constexpr std::string_view kDataOpen = "<script type=\"application/json\" id=\"data\">";

Node Map(std::vector<std::pair<std::string, Node>> fields) {
  Node map = Node::Mapping();
  for (auto& [key, value] : fields) map.Set(key, value);
  return map;
}

Node Seq(std::vector<Node> items) {
  Node seq = Node::Sequence();
  for (Node& item : items) seq.push_back(item);
  return seq;
}

Node Str(std::string value) { return Node::String(std::move(value)); }

Step Set(std::size_t layer, Node value, std::uint32_t line = 0) {
  return {layer, Action::kSet, std::move(value),
          line != 0 ? Location{InternSourceName("tj.yaml"), line, 3} : Location{}, ""};
}

Field Traced(std::string path, std::vector<Step> chain) {
  Field field;
  field.path = std::move(path);
  field.chain = std::move(chain);
  return field;
}

// A Pod whose container the runtime wrote and a patch changed: the image
// and the args are the patch's, the rest the runtime's; the labels carry a
// key that needs brackets and the script a literal block.
Explanation Sample() {
  Explanation explanation;
  explanation.subject = "TrainJob ml/llama";
  explanation.target = "trainer-v2.3";
  explanation.layers.push_back({LayerKind::kRuntime, "runtime", {}});
  explanation.layers.push_back({LayerKind::kPatch, "runtimePatches[kueue]", {}});
  Node container = Map({{"name", Str("node")},
                        {"image", Str("pytorch:2.5")},
                        {"args", Seq({Str("--a"), Str("--b")})},
                        {"command", Str("one\ntwo\n")}});
  Node object = Map({{"apiVersion", Str("v1")},
                     {"kind", Str("Pod")},
                     {"metadata", Map({{"name", Str("llama")},
                                       {"labels", Map({{"app.kubernetes.io/name", Str("x")}})}})},
                     {"spec", Map({{"containers", Seq({container})}})}});
  ObjectExplanation explained;
  explained.object = object;
  const std::string c = "spec.containers[name=node]";
  explained.fields = {Traced("", {Set(0, object)}),
                      Traced("metadata.name", {Set(0, Str("llama"))}),
                      Traced("metadata.labels[app.kubernetes.io/name]", {Set(0, Str("x"))}),
                      Traced(c, {Set(0, container)}),
                      Traced(c + ".image", {Set(0, Str("pytorch:2.4"), 7), Set(1, Str("pytorch:2.5"), 12)}),
                      Traced(c + ".args", {Set(1, Seq({Str("--a"), Str("--b")}), 14)}),
                      Traced(c + ".command", {Set(0, Str("one\ntwo\n"))})};
  explanation.objects.push_back(explained);
  explanation.files.push_back({"tj.yaml", "kind: TrainJob\nspec: {}\n"});
  return explanation;
}

// The JSON the page embeds, read back.
Node PageData(const std::string& page) {
  std::size_t open = page.find(kDataOpen);
  EXPECT_NE(open, std::string::npos);
  if (open == std::string::npos) return {};
  open += kDataOpen.size();
  std::size_t close = page.find("</script>", open);
  Result<Node> data = json::Read(page.substr(open, close - open), "page-data.json");
  EXPECT_TRUE(data.ok());
  return data.ok() ? data.value() : Node();
}

struct PageLine {
  std::string text, path, kind;
  const char* from = nullptr;  // null when the line has a chain of its own
  std::string from_path;
  std::string item;  // the list item starting on the line, if not the line's own
};

std::vector<PageLine> Lines(const Node& data, std::size_t object = 0) {
  std::vector<PageLine> out;
  for (const Node& line : (*data.Find("objects"))[object].Find("lines")->items()) {
    const Node* from = line.Find("from");
    out.push_back({line.Find("text")->string_value(), line.Find("path")->string_value(),
                   line.Find("kind")->string_value(), from != nullptr ? "from" : nullptr,
                   from != nullptr ? from->string_value() : "",
                   line.Find("item") != nullptr ? line.Find("item")->string_value() : ""});
  }
  return out;
}

PageLine LineWithText(const std::vector<PageLine>& lines, std::string_view text) {
  for (const PageLine& line : lines) {
    if (line.text == text) return line;
  }
  ADD_FAILURE() << "no line " << text;
  return {};
}

TEST(HtmlFormat, ReachesNothingOutsideThePage) {
  std::string page = FormatHtml(Sample());
  EXPECT_EQ(page.find("http://"), std::string::npos);
  EXPECT_EQ(page.find("https://"), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(\bsrc\s*=)"))) << "no src attribute";
  EXPECT_FALSE(std::regex_search(page, std::regex(R"(url\((?!\s*['"]?data:))"))) << "url() only for data:";
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos) << "the policy forbids any load";
}

TEST(HtmlFormat, ValuesCannotEndTheDataScript) {
  Explanation explanation = Sample();
  const std::string hostile = "</script><script>alert(1)</script><!--";
  explanation.subject = hostile;
  explanation.objects[0].fields[1].chain[0].detail = hostile;
  explanation.files[0].text = hostile;
  std::string page = FormatHtml(explanation);

  std::size_t scripts = 0;
  for (std::size_t at = page.find("</script"); at != std::string::npos; at = page.find("</script", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 2u) << "only the data and the script elements end";
  EXPECT_EQ(page.find("<!--"), std::string::npos);
  EXPECT_NE(page.find("<title>&lt;/script&gt;&lt;script&gt;alert(1)"), std::string::npos);

  Node data = PageData(page);
  EXPECT_EQ(data.Find("subject")->string_value(), hostile);
  EXPECT_EQ((*data.Find("files"))[0].Find("text")->string_value(), hostile);
}

TEST(HtmlFormat, EmbedsTheJsonDocumentAndTheInputFiles) {
  Explanation explanation = Sample();
  Node data = PageData(FormatHtml(explanation));
  Result<Node> json = json::Read(FormatJson(explanation), "explain.json");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(*data.Find("format"), *json->Find("format"));
  EXPECT_EQ(*data.Find("layers"), *json->Find("layers"));
  const Node& object = (*data.Find("objects"))[0];
  EXPECT_EQ(*object.Find("fields"), *(*json->Find("objects"))[0].Find("fields"));
  ASSERT_EQ(data.Find("files")->size(), 1u);
  EXPECT_EQ((*data.Find("files"))[0].Find("name")->string_value(), "tj.yaml");
  EXPECT_EQ((*data.Find("files"))[0].Find("text")->string_value(), "kind: TrainJob\nspec: {}\n");
}

TEST(HtmlFormat, LinesAreTheYamlRenderPrints) {
  Explanation explanation = Sample();
  std::vector<PageLine> lines = Lines(PageData(FormatHtml(explanation)));
  std::string joined;
  for (const PageLine& line : lines) joined += line.text + "\n";
  EXPECT_EQ(joined, yaml::Write(explanation.objects[0].object));
}

TEST(HtmlFormat, EachLineNamesTheNodeItShows) {
  std::vector<PageLine> lines = Lines(PageData(FormatHtml(Sample())));
  const std::string c = "spec.containers[name=node]";
  struct Expected {
    const char* text;
    std::string path;
  };
  for (const Expected& expected : std::vector<Expected>{
           {"apiVersion: v1", "apiVersion"},
           {"metadata:", "metadata"},
           {"  labels:", "metadata.labels"},
           {"    app.kubernetes.io/name: x", "metadata.labels[app.kubernetes.io/name]"},
           {"  name: llama", "metadata.name"},
           {"  containers:", "spec.containers"},
           {"  - args:", c + ".args"},
           {"    - --a", c + ".args"},  // a scalar list is one value
           {"    - --b", c + ".args"},
           {"    command: |", c + ".command"},
           {"      one", c + ".command"},
           {"      two", c + ".command"},
           {"    image: pytorch:2.5", c + ".image"},
           {"    name: node", c + ".name"},
       }) {
    EXPECT_EQ(LineWithText(lines, expected.text).path, expected.path) << expected.text;
  }
}

TEST(HtmlFormat, LinesTakeTheKindOfTheLastLayerOrTheirParents) {
  std::vector<PageLine> lines = Lines(PageData(FormatHtml(Sample())));
  EXPECT_EQ(LineWithText(lines, "    image: pytorch:2.5").kind, "runtimePatch");
  EXPECT_EQ(LineWithText(lines, "    - --b").kind, "runtimePatch");
  EXPECT_EQ(LineWithText(lines, "      two").kind, "runtime");
  // Fields without a chain of their own are coloured as what holds them.
  EXPECT_EQ(LineWithText(lines, "    name: node").kind, "runtime") << "the container's";
  EXPECT_EQ(LineWithText(lines, "kind: Pod").kind, "runtime") << "the object's";
}

TEST(HtmlFormat, LinesWithoutAChainNameTheFieldWhoseChainTheyShow) {
  std::vector<PageLine> lines = Lines(PageData(FormatHtml(Sample())));
  PageLine name = LineWithText(lines, "    name: node");
  ASSERT_NE(name.from, nullptr);
  EXPECT_EQ(name.from_path, "spec.containers[name=node]");
  PageLine kind = LineWithText(lines, "kind: Pod");
  ASSERT_NE(kind.from, nullptr);
  EXPECT_EQ(kind.from_path, "") << "the object's own chain";
  EXPECT_EQ(LineWithText(lines, "    image: pytorch:2.5").from, nullptr);
}

TEST(HtmlFormat, TheFirstLineOfAListItemNamesTheItem) {
  std::vector<PageLine> lines = Lines(PageData(FormatHtml(Sample())));
  EXPECT_EQ(LineWithText(lines, "  - args:").item, "spec.containers[name=node]");
  EXPECT_EQ(LineWithText(lines, "    - --a").item, "") << "a scalar list's items are the list";
  EXPECT_EQ(LineWithText(lines, "    command: |").item, "");
  EXPECT_EQ(LineWithText(lines, "  containers:").item, "");
}

TEST(HtmlFormat, LinesWithoutAnyLayerHaveNoKind) {
  Explanation explanation = Sample();
  explanation.objects[0].fields.erase(explanation.objects[0].fields.begin());  // the object's own
  std::vector<PageLine> lines = Lines(PageData(FormatHtml(explanation)));
  EXPECT_EQ(LineWithText(lines, "kind: Pod").kind, "");
  EXPECT_EQ(LineWithText(lines, "  name: llama").kind, "runtime");
}

TEST(HtmlFormat, ListItemsWithoutADistinctNameAreIndexed) {
  Explanation explanation = Sample();
  Node& spec = *explanation.objects[0].object.FindMutable("spec");
  spec.Set("tolerations", Seq({Map({{"operator", Str("Exists")}}), Map({{"operator", Str("Equal")}})}));
  std::vector<PageLine> lines = Lines(PageData(FormatHtml(explanation)));
  EXPECT_EQ(LineWithText(lines, "  - operator: Exists").path, "spec.tolerations[0].operator");
  EXPECT_EQ(LineWithText(lines, "  - operator: Equal").path, "spec.tolerations[1].operator");
}

TEST(HtmlFormat, IsDeterministic) { EXPECT_EQ(FormatHtml(Sample()), FormatHtml(Sample())); }

}  // namespace
}  // namespace tjr::explain
