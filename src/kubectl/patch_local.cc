#include "kubectl/patch_local.h"

#include <optional>
#include <vector>

#include "doc/objects.h"
#include "gocompat/utf8.h"
#include "json/json.h"
#include "schema/schema.h"
#include "smp/strategic_merge.h"
#include "typed/object_meta_decode.h"
#include "typed/round_trip.h"
#include "yaml/printable.h"
#include "yaml/reader.h"
#include "yaml/writer.h"

namespace tjr::kubectl {
namespace {

std::vector<std::string> PolicySetsFor(std::string_view api_version,
                                       const PatchLocalOptions& options) {
  if (api_version.starts_with("jobset.x-k8s.io/")) {
    if (options.jobset_version == "v0.12") return {"kubernetes-v1.36", "jobset-v0.12.0"};
    return {"kubernetes-v1.34", "jobset-v0.10.1"};
  }
  return {"kubernetes-v1.34"};
}

// kubectl names a kind it cannot type the way apimachinery prints a
// GroupVersionKind: "group/version, Kind=Kind" ("/v1, Kind=Pod" for core).
std::string GvkString(std::string_view api_version, std::string_view kind) {
  std::string group_version(api_version);
  if (group_version.find('/') == std::string::npos) group_version = "/" + group_version;
  return group_version + ", Kind=" + std::string(kind);
}

std::string_view StringField(const doc::Node& object, std::string_view key) {
  const doc::Node* value = object.Find(key);
  return value != nullptr && value->is_string() ? std::string_view(value->string_value())
                                                : std::string_view();
}

// kubectl's printers hide metadata.managedFields unless asked to show them.
void HideManagedFields(doc::Node* object) {
  doc::Node* metadata = object->FindMutable("metadata");
  if (metadata != nullptr && metadata->is_mapping()) metadata->Erase("managedFields");
}

// kubectl reports a decode or print failure of the patched object without a
// place; the error keeps kubectl's text and gets the object's file and line,
// so a user with many objects knows which one.
Diagnostic AtObjectWhenUnplaced(Diagnostic error, const doc::Node& object) {
  if (!error.location.known() && object.location().known()) error.location = object.location();
  return error;
}

// kubectl patch reads the patch file through apimachinery's yaml.ToJSON,
// which hands text starting with `{` (after unicode.IsSpace) to the merge as
// it is (apimachinery v0.32.4 util/yaml/decoder.go:94-99, 388-397); the merge's
// json.Unmarshal then reads exactly one value, so `{}{}` or a second
// document is refused (ErrBadJSONDoc). Other text is YAML, and only its
// first document counts.
Result<doc::Node> ReadPatch(std::string_view patch_text, std::string_view patch_name) {
  if (gocompat::TrimLeftUnicodeSpace(patch_text).starts_with('{')) {
    Result<doc::Node> value = json::Read(patch_text, patch_name);
    if (!value.ok()) return AsInputError(value.take_error());
    return value;
  }
  auto patches = yaml::ReadStream(patch_text, patch_name);
  if (!patches.ok()) return AsInputError(patches.take_error());
  return patches->empty() ? doc::Node::Null() : patches->front();
}

}  // namespace

Result<std::string> PatchLocal(std::string_view object_text, std::string_view object_name,
                               std::string_view patch_text, std::string_view patch_name,
                               const PatchLocalOptions& options) {
  Result<doc::Node> read_patch = ReadPatch(patch_text, patch_name);
  if (!read_patch.ok()) return read_patch.take_error();
  doc::Node patch = std::move(read_patch).value();
  if (!patch.is_mapping() && !patch.is_null()) {
    // strategicpatch's handleUnmarshal turns any decode failure into ErrBadJSONDoc.
    return MakeError(patch.location(), "", "invalid JSON document");
  }

  auto documents = yaml::ReadStream(object_text, object_name);
  if (!documents.ok()) return AsInputError(documents.take_error());
  // kubectl's builder decodes each document's metadata into ObjectMeta once
  // the document has a kind, a List's own metadata included but not its
  // items' (cli-runtime resource/mapper.go, metadataValidatingDecoder).
  for (const doc::Node& document : *documents) {
    if (!document.is_mapping() || StringField(document, "kind").empty()) continue;
    if (std::optional<Diagnostic> error = typed::DecodeObjectMeta(document, typed::MetadataDecoder::kKubectl)) {
      return *std::move(error);
    }
  }
  auto objects = doc::FlattenLists(*documents);
  if (!objects.ok()) return objects.take_error();
  if (objects->empty()) {
    return MakeError(Location{InternSourceName(object_name)}, "", "no objects passed to patch");
  }

  std::string out;
  for (const doc::Node& object : *objects) {
    std::string_view api_version = StringField(object, "apiVersion");
    std::string_view kind = StringField(object, "kind");
    if (kind.empty()) {
      return MakeError(object.location(), "kind", "Object 'Kind' is missing");
    }
    auto schema = schema::BuiltinSchema(PolicySetsFor(api_version, options));
    if (!schema.ok()) return schema.take_error();
    const schema::Type* type = (*schema)->ForKind(api_version, kind);
    if (type == nullptr) {
      return MakeError(object.location(), "",
                       "strategic merge patch is not supported for " +
                           GvkString(api_version, kind) + " locally, try --type merge");
    }
    doc::Node patched = object;
    if (patch.is_mapping()) {
      auto merged = smp::StrategicMerge(object, patch, *type);
      if (!merged.ok()) return merged.take_error();
      patched = std::move(merged).value();
    }
    // kubectl decodes the patched JSON again, which needs a kind.
    if (StringField(patched, "kind").empty()) {
      return MakeError(patch.location(), "kind", "Object 'Kind' is missing in the patched object");
    }
    HideManagedFields(&patched);
    if (options.typed) {
      auto typed = typed::TypedRoundTrip(patched, *type);
      if (!typed.ok()) return AtObjectWhenUnplaced(typed.take_error(), object);
      patched = std::move(typed).value();
    }
    if (options.output == OutputFormat::kJson) {
      out += json::Write(patched, /*pretty=*/true);
    } else {
      Status printable = yaml::CheckKubectlPrintable(patched);
      if (!printable.ok()) return AtObjectWhenUnplaced(printable.take_error(), object);
      yaml::Write(patched, &out);
    }
  }
  return out;
}

}  // namespace tjr::kubectl
