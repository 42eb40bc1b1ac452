#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json.h"
#include "schema/schema.h"

namespace tjr::schema {
namespace {

// A small Kubernetes-like set: a kind, inline-flattened fields, a keyed
// list, a named map of a custom-JSON type.
constexpr const char* kCore = R"({
  "format": "tjrender-policy/v1",
  "name": "core-v1",
  "provenance": {
    "generator": "test",
    "upstream": [{"module": "example.com/core", "repo": "github.com/example/core", "tag": "v1.2.3",
                  "commit": "0123456789abcdef0123456789abcdef01234567", "dirs": ["core"]}],
    "roots": ["example.com/core.Pod"]
  },
  "kinds": [{"apiVersion": "v1", "kind": "Pod", "type": "example.com/core.Pod"}],
  "external": [],
  "types": {
    "example.com/core.Meta": {"kind": "struct", "source": "meta.go:10", "fields": [
      {"name": "finalizers", "type": "[]string", "omitempty": true, "patchStrategy": "merge", "listType": "set", "source": "meta.go:11"},
      {"name": "labels", "type": "map[string]string", "omitempty": true, "source": "meta.go:12"}
    ]},
    "example.com/core.Pod": {"kind": "struct", "source": "core.go:1", "fields": [
      {"name": "apiVersion", "type": "string", "omitempty": true, "source": "meta.go:2", "promotedFrom": "example.com/core.TypeMeta"},
      {"name": "kind", "type": "string", "omitempty": true, "source": "meta.go:3", "promotedFrom": "example.com/core.TypeMeta"},
      {"name": "metadata", "type": "example.com/core.Meta", "omitempty": true, "omitzero": true, "source": "core.go:2"},
      {"name": "spec", "type": "example.com/core.PodSpec", "pointer": true, "source": "core.go:3"}
    ]},
    "example.com/core.PodSpec": {"kind": "struct", "structType": "atomic", "source": "core.go:5", "fields": [
      {"name": "volumes", "type": "[]example.com/core.Volume", "patchStrategy": "merge,retainKeys", "patchMergeKey": "name", "listType": "map", "listMapKeys": ["name"], "source": "core.go:6"},
      {"name": "overhead", "type": "example.com/core.ResourceList", "mapType": "granular", "source": "core.go:7"},
      {"name": "priority", "type": "int32", "pointer": true, "source": "core.go:8"}
    ]},
    "example.com/core.Quantity": {"kind": "customJson", "source": "quantity.go:1"},
    "example.com/core.ResourceList": {"kind": "map", "underlying": "map[example.com/core.ResourceName]example.com/core.Quantity", "source": "core.go:20"},
    "example.com/core.ResourceName": {"kind": "string", "underlying": "string", "source": "core.go:21"},
    "example.com/core.Volume": {"kind": "struct", "source": "core.go:9", "fields": [
      {"name": "name", "type": "string", "source": "core.go:10"}
    ]}
  }
})";

// A CRD-like set that names core types it does not define.
constexpr const char* kExt = R"({
  "format": "tjrender-policy/v1",
  "name": "ext-v1",
  "provenance": {"generator": "test", "upstream": [{"repo": "github.com/example/ext", "tag": "v0.1.0", "commit": "fedcba9876543210fedcba9876543210fedcba98"}], "companion": "core-v1"},
  "kinds": [{"apiVersion": "ext.example.com/v1", "kind": "Set", "type": "example.com/ext.Set"}],
  "external": ["example.com/core.Meta", "example.com/core.Volume"],
  "types": {
    "example.com/ext.Set": {"kind": "struct", "source": "ext.go:1", "fields": [
      {"name": "apiVersion", "type": "string", "source": "meta.go:2"},
      {"name": "kind", "type": "string", "source": "meta.go:3"},
      {"name": "metadata", "type": "example.com/core.Meta", "source": "ext.go:2"},
      {"name": "volumes", "type": "[]example.com/core.Volume", "source": "ext.go:3"}
    ]}
  }
})";

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

doc::Node Parse(const std::string& text, const std::string& name) {
  Result<doc::Node> node = json::Read(text, name);
  EXPECT_TRUE(node.ok()) << node.error().ToString();
  return node.ok() ? node.value() : doc::Node();
}

Result<Schema> Load(const std::vector<std::string>& texts) {
  std::vector<doc::Node> docs;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    docs.push_back(Parse(texts[i], "doc" + std::to_string(i) + ".json"));
  }
  return LoadSchema(docs);
}

std::string LoadError(const std::vector<std::string>& texts) {
  Result<Schema> schema = Load(texts);
  EXPECT_FALSE(schema.ok());
  return schema.ok() ? std::string() : schema.error().ToString();
}

TEST(LoadSchemaTest, BuildsTypeGraph) {
  Result<Schema> schema = Load({kCore});
  ASSERT_TRUE(schema.ok()) << schema.error().ToString();
  const Type* pod = schema->ForKind("v1", "Pod");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod, schema->FindType("example.com/core.Pod"));
  EXPECT_EQ(pod->source, "core.go:1");
  ASSERT_EQ(pod->fields.size(), 4u);
  EXPECT_EQ(pod->fields[0].json_name, "apiVersion");
  EXPECT_EQ(pod->fields[0].type->kind, Type::Kind::kString);
  EXPECT_TRUE(pod->fields[2].omitzero);
  EXPECT_FALSE(pod->fields[3].omitempty);

  const Field* spec = pod->FindField("spec");
  ASSERT_NE(spec, nullptr);
  EXPECT_TRUE(spec->pointer);
  EXPECT_EQ(spec->type->name, "example.com/core.PodSpec");
  EXPECT_EQ(spec->type->struct_type, "atomic");

  const Field* volumes = spec->type->FindField("volumes");
  ASSERT_NE(volumes, nullptr);
  EXPECT_EQ(volumes->patch_strategies, (std::vector<std::string>{"merge", "retainKeys"}));
  EXPECT_EQ(volumes->patch_merge_key, "name");
  EXPECT_EQ(volumes->list_type, "map");
  EXPECT_EQ(volumes->list_map_keys, std::vector<std::string>{"name"});
  EXPECT_EQ(volumes->source, "core.go:6");
  ASSERT_EQ(volumes->type->kind, Type::Kind::kSlice);
  EXPECT_EQ(volumes->type->name, "[]example.com/core.Volume");
  EXPECT_EQ(volumes->type->elem, schema->FindType("example.com/core.Volume"));

  const Field* overhead = spec->type->FindField("overhead");
  ASSERT_NE(overhead, nullptr);
  EXPECT_EQ(overhead->map_type, "granular");
  EXPECT_TRUE(overhead->patch_strategies.empty());
  ASSERT_EQ(overhead->type->kind, Type::Kind::kMap);
  EXPECT_EQ(overhead->type->name, "example.com/core.ResourceList");
  EXPECT_EQ(overhead->type->key->name, "example.com/core.ResourceName");
  EXPECT_EQ(overhead->type->elem->kind, Type::Kind::kCustomJson);

  const Field* priority = spec->type->FindField("priority");
  ASSERT_NE(priority, nullptr);
  EXPECT_TRUE(priority->pointer);
  EXPECT_EQ(priority->type->kind, Type::Kind::kInt);
  EXPECT_EQ(priority->type->name, "int32");

  const Type* labels = pod->FindField("metadata")->type->FindField("labels")->type;
  EXPECT_EQ(labels->kind, Type::Kind::kMap);
  EXPECT_EQ(labels->elem->kind, Type::Kind::kString);
  EXPECT_EQ(labels->key->kind, Type::Kind::kString);

  EXPECT_EQ(schema->provenance(),
            std::vector<std::string>{
                "core-v1: github.com/example/core v1.2.3 (0123456789ab); generated by test"});
  EXPECT_EQ(schema->kinds().size(), 1u);
  EXPECT_EQ(schema->ForKind("v1", "Set"), nullptr);
  EXPECT_EQ(schema->ForKind("apps/v1", "Pod"), nullptr);
}

TEST(LoadSchemaTest, LinksReferencesAcrossDocumentsInAnyOrder) {
  for (const auto& order : {std::vector<std::string>{kCore, kExt}, std::vector<std::string>{kExt, kCore}}) {
    Result<Schema> schema = Load(order);
    ASSERT_TRUE(schema.ok()) << schema.error().ToString();
    const Type* set = schema->ForKind("ext.example.com/v1", "Set");
    ASSERT_NE(set, nullptr);
    EXPECT_EQ(set->FindField("metadata")->type, schema->FindType("example.com/core.Meta"));
    EXPECT_EQ(set->FindField("volumes")->type->elem, schema->FindType("example.com/core.Volume"));
    // Composite types are shared, not duplicated per document.
    EXPECT_EQ(set->FindField("volumes")->type,
              schema->ForKind("v1", "Pod")->FindField("spec")->type->FindField("volumes")->type);
    EXPECT_EQ(schema->provenance().size(), 2u);
  }
}

TEST(LoadSchemaTest, DanglingReferenceIsAnError) {
  EXPECT_EQ(LoadError({kExt}),
            "doc0.json:11:7: error: example.com/ext.Set field \"metadata\" refers to type "
            "\"example.com/core.Meta\", which no loaded policy set defines");
  std::string core = Replace(kCore, R"("type": "[]example.com/core.Volume")",
                             R"("type": "[]example.com/core.Volumes")");
  EXPECT_NE(LoadError({core}).find("example.com/core.PodSpec field \"volumes\" refers to type "
                                   "\"example.com/core.Volumes\", which no loaded policy set defines"),
            std::string::npos);
}

TEST(LoadSchemaTest, UnusedExternalMustStillResolve) {
  std::string ext = Replace(kExt, R"("external": [)", R"("external": ["example.com/core.Gone", )");
  EXPECT_NE(LoadError({kCore, ext}).find("ext-v1 needs external type example.com/core.Gone, which no "
                                         "loaded policy set defines"),
            std::string::npos);
}

TEST(LoadSchemaTest, DuplicatesAreErrors) {
  std::string again = Replace(kCore, R"("name": "core-v1")", R"("name": "core-v2")");
  EXPECT_NE(LoadError({kCore, again}).find("core-v2: type example.com/core.Meta is already defined by "
                                           "core-v1"),
            std::string::npos);
  EXPECT_NE(LoadError({kCore, kCore}).find("policy set core-v1 is given twice"), std::string::npos);
  std::string kind_twice = Replace(kExt, R"("apiVersion": "ext.example.com/v1", "kind": "Set")",
                                   R"("apiVersion": "v1", "kind": "Pod")");
  EXPECT_NE(LoadError({kCore, kind_twice}).find("kind v1/Pod is already defined"), std::string::npos);
  std::string field_twice = Replace(kCore, R"({"name": "priority")", R"({"name": "volumes")");
  EXPECT_NE(LoadError({field_twice}).find("example.com/core.PodSpec: field \"volumes\" appears twice"),
            std::string::npos);
}

TEST(LoadSchemaTest, RejectsMalformedEntries) {
  EXPECT_NE(LoadError({Replace(kCore, "tjrender-policy/v1", "tjrender-policy/v2")})
                .find("policy format \"tjrender-policy/v2\" is not tjrender-policy/v1"),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("patchMergeKey": "name")", R"("patchMergekey": "name")")})
                .find("example.com/core.PodSpec field: unknown member \"patchMergekey\""),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("pointer": true, "source": "core.go:8")",
                               R"("pointer": "yes", "source": "core.go:8")")})
                .find("\"pointer\" must be true or false"),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("listMapKeys": ["name"])", R"("listMapKeys": "name")")})
                .find("\"listMapKeys\" must be a list of strings"),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("kind": "customJson")", R"("kind": "opaque")")})
                .find("type example.com/core.Quantity needs a valid \"kind\""),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"({"name": "name", "type": "string", "source": "core.go:10"})",
                               R"({"name": "name", "type": "string"})")})
                .find("example.com/core.Volume field lacks \"source\""),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("generator": "test",)", "")})
                .find("provenance of core-v1 lacks \"generator\""),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"({"name": "name", "type": "string")",
                               R"({"name": "n\u00e4me", "type": "string")")})
                .find("field names must be non-empty ASCII"),
            std::string::npos);
}

TEST(LoadSchemaTest, ChecksNamedTypesAgainstTheirUnderlyingType) {
  EXPECT_NE(LoadError({Replace(kCore, R"("example.com/core.Quantity":)",
                               R"("example.com/core.Phase": {"kind": "int", "underlying": "string", "source": "x"},
                                  "example.com/core.Quantity":)")})
                .find("type example.com/core.Phase: kind does not match underlying string"),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("kind": "string", "underlying": "string")",
                               R"("kind": "string", "underlying": "example.com/core.Quantity")")})
                .find("underlying must be a builtin or composite type"),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("type": "map[string]string")", R"("type": "map[int32]string")")})
                .find("map key type int32 is not a string type"),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("type": "map[string]string")", R"("type": "map[string")")})
                .find("malformed map type"),
            std::string::npos);
  EXPECT_NE(LoadError({Replace(kCore, R"("type": "example.com/core.Pod"})",
                               R"("type": "example.com/core.ResourceName"})")})
                .find("kind v1/Pod names no struct type (example.com/core.ResourceName)"),
            std::string::npos);
}

}  // namespace
}  // namespace tjr::schema
