#include "integrate/item_origin.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "integrate/krm.h"

namespace tjr::integrate {
namespace {

// What kpt 1.0.0-beta.56 sends for a package holding f.yaml (below) and
// g.json: each document as an item, with the annotations it adds.
const char kFromKpt[] =
    "apiVersion: config.kubernetes.io/v1\n"
    "kind: ResourceList\n"
    "items:\n"
    "- # head of doc 0\n"
    "  apiVersion: v1\n"
    "  kind: ConfigMap\n"
    "  metadata:\n"
    "    name: zero\n"
    "    annotations:\n"
    "      mine: \"x\"\n"
    "      config.kubernetes.io/index: '0'\n"
    "      config.kubernetes.io/path: 'f.yaml'\n"
    "      internal.config.kubernetes.io/index: '0'\n"
    "      internal.config.kubernetes.io/path: 'f.yaml'\n"
    "      internal.config.kubernetes.io/seqindent: 'compact'\n"
    "      internal.config.kubernetes.io/annotations-migration-resource-id: '0'\n"
    "      internal.config.kubernetes.io/id: '1'\n"
    "      config.k8s.io/id: '1'\n"
    "  data:\n"
    "    list:\n"
    "    - a\n"
    "    keep: |\n"
    "      kept\n"
    "- apiVersion: v1\n"
    "  kind: ConfigMap\n"
    "  metadata:\n"
    "    name: one\n"
    "    annotations:\n"
    "      config.kubernetes.io/index: '1'\n"
    "      config.kubernetes.io/path: 'f.yaml'\n"
    "      internal.config.kubernetes.io/index: '1'\n"
    "      internal.config.kubernetes.io/path: 'f.yaml'\n"
    "      internal.config.kubernetes.io/seqindent: 'compact'\n"
    "      internal.config.kubernetes.io/annotations-migration-resource-id: '1'\n"
    "      internal.config.kubernetes.io/id: '2'\n"
    "      config.k8s.io/id: '2'\n"
    "  data:\n"
    "    k: v # eol\n"
    "- apiVersion: v1\n"
    "  kind: ConfigMap\n"
    "  metadata: {name: two, annotations: {config.kubernetes.io/index: '2', "
    "internal.config.kubernetes.io/path: 'f.yaml', internal.config.kubernetes.io/index: '2'}}\n"
    "  data:\n"
    "    z: y\n"
    "functionConfig:\n"
    "  metadata:\n"
    "    name: function-input\n"
    "  data: {}\n"
    "  kind: ConfigMap\n"
    "  apiVersion: v1\n";

// f.yaml as kpt writes it back: the items' own lines, separated by `---`.
//  1 # head of doc 0          10   - a                19   k: v # eol
//  2 apiVersion: v1           11   keep: |            20 ---
//  3 kind: ConfigMap          12     kept             21 apiVersion: v1
//  4 metadata:                13 ---                  22 kind: ConfigMap
//  5   name: zero             14 apiVersion: v1       23 metadata: {name: two}
//  6   annotations:           15 kind: ConfigMap      24 data:
//  7     mine: "x"            16 metadata:            25   z: y
//  8 data:                    17   name: one
//  9   list:                  18 data:

const doc::Node& At(const doc::Node& node, std::initializer_list<std::string_view> path) {
  const doc::Node* at = &node;
  for (std::string_view key : path) at = at->Find(key);
  return *at;
}

TEST(ItemOrigin, MapsResourceListLinesToTheFile) {
  auto list = ReadResourceList(kFromKpt, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  ASSERT_EQ(list->origins.size(), 3u);
  EXPECT_EQ(list->origins[0].file_line, 1u);
  EXPECT_EQ(list->origins[0].line_count(), 12u);
  EXPECT_EQ(list->origins[1].file_line, 14u);
  EXPECT_EQ(list->origins[2].file_line, 21u);
  auto file = [&](const doc::Node& node) {
    return FileLocation(list->origins, "<stdin>", node.location()).ToString();
  };
  EXPECT_EQ(file(At(list->items[0], {"apiVersion"})), "f.yaml:2:13");
  EXPECT_EQ(file(At(list->items[0], {"metadata", "annotations", "mine"})), "f.yaml:7:11");
  EXPECT_EQ(file(At(list->items[0], {"data", "list"})), "f.yaml:10:3");
  EXPECT_EQ(file(At(list->items[1], {"data", "k"})), "f.yaml:19:6");
  EXPECT_EQ(file(At(list->items[2], {"data", "z"})), "f.yaml:25:6");
  // Outside every item: left as it is.
  EXPECT_EQ(file(At(list->function_config, {"kind"})), "<stdin>:48:9");
}

TEST(ItemOrigin, WideListsAreWrittenBackWide) {
  // kpt sends lists compact and writes them back as the file had them.
  const char text[] =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
      "- apiVersion: v1\n"
      "  kind: X\n"
      "  metadata:\n"
      "    name: w\n"
      "    annotations:\n"
      "      internal.config.kubernetes.io/path: 'w.yaml'\n"
      "      internal.config.kubernetes.io/seqindent: 'wide'\n"
      "  spec:\n"
      "    outer:\n"
      "    - name: a\n"
      "      inner:\n"
      "      - x\n";
  // w.yaml:                 6   outer:
  //  1 apiVersion: v1        7     - name: a
  //  2 kind: X               8       inner:
  //  3 metadata:             9         - x
  //  4   name: w
  //  5 spec:
  auto list = ReadResourceList(text, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  auto file = [&](const doc::Node& node) {
    return FileLocation(list->origins, "<stdin>", node.location()).ToString();
  };
  const doc::Node& entry = (*list->items[0].Find("spec")->Find("outer"))[0];
  EXPECT_EQ(file(*entry.Find("name")), "w.yaml:7:13");
  EXPECT_EQ(file((*entry.Find("inner"))[0]), "w.yaml:9:11");
  EXPECT_EQ(file(*list->items[0].Find("kind")), "w.yaml:2:7");
}

TEST(ItemOrigin, WithoutTheDocumentsBeforeItTheLineIsUnknown) {
  // Only f.yaml's document 1 (kpt sends a selection under --match-*).
  std::string text = kFromKpt;
  std::size_t zero = text.find("- # head of doc 0");
  std::size_t one = text.find("- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: one");
  text.erase(zero, one - zero);
  auto list = ReadResourceList(text, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  EXPECT_EQ(list->origins[0].file_line, 0u);
  EXPECT_EQ(FileLocation(list->origins, "<stdin>", At(list->items[0], {"data", "k"}).location()).ToString(),
            "f.yaml");
}

TEST(ItemOrigin, ItemsWithoutAPathCountFromTheirOwnFirstLine) {
  const char text[] =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
      "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n"
      "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: b\n";
  auto list = ReadResourceList(text, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  EXPECT_EQ(FileLocation(list->origins, "<stdin>", At(list->items[1], {"metadata", "name"}).location())
                .ToString(),
            "items[1]:4:9");
}

// YAML ends a line at a lone CR too (as the readers count the items' lines):
// the same list with CR line ends maps to the same lines. The krm_items
// fuzz target's `items:\n-\ri` read past the line table before.
TEST(ItemOrigin, LoneCarriageReturnsEndLines) {
  const char text[] =
      "apiVersion: config.kubernetes.io/v1\rkind: ResourceList\ritems:\r"
      "- apiVersion: v1\r  kind: ConfigMap\r  metadata:\r    name: a\r"
      "- apiVersion: v1\r  kind: ConfigMap\r  metadata:\r    name: b\r";
  auto list = ReadResourceList(text, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  ASSERT_EQ(list->origins.size(), 2u);
  EXPECT_EQ(list->origins[1].first_line, 8u);
  EXPECT_EQ(FileLocation(list->origins, "<stdin>", At(list->items[1], {"metadata", "name"}).location())
                .ToString(),
            "items[1]:4:9");
  // A `-` ended by a lone CR, its item on the next line.
  const std::string_view mixed = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n-\ri\n";
  auto dash = ReadResourceList(mixed, "<stdin>");
  ASSERT_TRUE(dash.ok()) << dash.error().ToString();
  ASSERT_EQ(dash->origins.size(), 1u);
  EXPECT_EQ(dash->origins[0].first_line, 4u);
  EXPECT_EQ(mixed.substr(dash->origins[0].begin, dash->origins[0].end - dash->origins[0].begin), "-\ri\n");
}

TEST(ItemOrigin, FlowItemsNameTheirFileWithoutALine) {
  const char text[] =
      "{\"apiVersion\": \"config.kubernetes.io/v1\", \"kind\": \"ResourceList\", \"items\": ["
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"a\", \"annotations\": "
      "{\"internal.config.kubernetes.io/path\": \"a.yaml\"}}}, "
      "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"b\"}}]}";
  auto list = ReadResourceList(text, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  auto file = [&](const doc::Node& node) {
    return FileLocation(list->origins, "<stdin>", node.location()).ToString();
  };
  EXPECT_EQ(file(At(list->items[0], {"metadata", "name"})), "a.yaml");
  EXPECT_EQ(file(At(list->items[1], {"metadata", "name"})), "items[1]");
}

TEST(ItemOrigin, OrchestratorAnnotations) {
  EXPECT_TRUE(IsOrchestratorAnnotation("internal.config.kubernetes.io/seqindent"));
  EXPECT_TRUE(IsOrchestratorAnnotation("config.kubernetes.io/path"));
  EXPECT_TRUE(IsOrchestratorAnnotation("config.k8s.io/id"));
  EXPECT_FALSE(IsOrchestratorAnnotation("config.kubernetes.io/local-config"));
  EXPECT_FALSE(IsOrchestratorAnnotation("config.kubernetes.io/function"));
}

// A licence header separated by a blank line is the document node's head
// comment in kyaml, which the ResourceList leaves out (what kpt
// 1.0.0-beta.56 sent for this file); --match-kind sends only the second
// document, marked with kpt-resource-id. The file itself places both.
TEST(ItemOrigin, FilesPlaceWhatTheItemsCannot) {
  const char file[] =
      "# Copyright 2025 The Authors.\n"  // 1
      "#\n"                              // 2
      "# Licensed under the Apache License.\n"
      "\n"
      "apiVersion: v1\n"                 // 5
      "kind: ConfigMap\n"
      "metadata:\n"
      "  name: first\n"
      "---\n"
      "apiVersion: v1\n"                 // 10
      "kind: ConfigMap\n"
      "metadata:\n"
      "  name: second\n"
      "data:\n"
      "  k: v\n";                        // 15
  const char selected[] =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
      "- apiVersion: v1\n"
      "  kind: ConfigMap\n"
      "  metadata:\n"
      "    name: second\n"
      "    annotations:\n"
      "      config.kubernetes.io/index: '1'\n"
      "      internal.config.kubernetes.io/index: '1'\n"
      "      internal.config.kubernetes.io/path: 'lic.yaml'\n"
      "      internal.config.k8s.io/kpt-resource-id: '0'\n"
      "  data:\n"
      "    k: v\n";
  auto list = ReadResourceList(selected, "<stdin>");
  ASSERT_TRUE(list.ok()) << list.error().ToString();
  EXPECT_EQ(list->origins[0].file_line, 0u) << "documents before it are not in the list";
  std::vector<std::string> asked;
  auto read = [&](const std::string& path) -> std::optional<std::string> {
    asked.push_back(path);
    return path == "lic.yaml" ? std::optional<std::string>(file) : std::nullopt;
  };
  PlaceFromFiles(&list->origins, list->items, read);
  EXPECT_EQ(asked, std::vector<std::string>{"lic.yaml"});
  EXPECT_EQ(FileLocation(list->origins, "<stdin>", At(list->items[0], {"data", "k"}).location()).ToString(),
            "lic.yaml:15:6");

  // The first document alone, header dropped: counting says line 1.
  const char first[] =
      "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"
      "- apiVersion: v1\n"
      "  kind: ConfigMap\n"
      "  metadata:\n"
      "    name: first\n"
      "    annotations:\n"
      "      internal.config.kubernetes.io/path: 'lic.yaml'\n";
  auto alone = ReadResourceList(first, "<stdin>");
  ASSERT_TRUE(alone.ok());
  EXPECT_EQ(alone->origins[0].file_line, 1u);
  PlaceFromFiles(&alone->origins, alone->items, read);
  EXPECT_EQ(FileLocation(alone->origins, "<stdin>", At(alone->items[0], {"metadata", "name"}).location()).ToString(),
            "lic.yaml:8:9");

  // A file that no longer holds the item (edited since, or another file of
  // that name) changes nothing.
  auto other = ReadResourceList(first, "<stdin>");
  ASSERT_TRUE(other.ok());
  PlaceFromFiles(&other->origins, other->items, [](const std::string&) {
    return std::optional<std::string>("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: renamed\n");
  });
  EXPECT_EQ(other->origins[0].file_line, 1u);
}

}  // namespace
}  // namespace tjr::integrate
