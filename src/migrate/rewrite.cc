#include "migrate/rewrite.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "gocompat/bom.h"
#include "migrate/splice.h"
#include "yaml/reader.h"
#include "yaml/reader_spans.h"

namespace tjr::migrate {
namespace {

bool IsTrainJob(const doc::Node& document) {
  if (!document.is_mapping()) return false;
  const doc::Node* api = document.Find("apiVersion");
  const doc::Node* kind = document.Find("kind");
  return api != nullptr && kind != nullptr && api->is_string() && kind->is_string() &&
         api->string_value() == "trainer.kubeflow.org/v1alpha1" &&
         kind->string_value() == "TrainJob";
}

std::string MetadataString(const doc::Node& document, const char* key) {
  const doc::Node* metadata = document.Find("metadata");
  const doc::Node* value = metadata != nullptr && metadata->is_mapping() ? metadata->Find(key)
                                                                         : nullptr;
  return value != nullptr && value->is_string() ? value->string_value() : std::string();
}

struct Pending {
  std::size_t trainjob = 0;  // index into FileRewrite::trainjobs
  std::size_t document = 0;  // index into the documents
  std::vector<Edit> edits;
  doc::Node expected;
};

// Whether `text` reads as `documents` with each pending document replaced
// by its expectation.
bool ReadsAsPlanned(std::string_view text, std::string_view source_name,
                    const std::vector<doc::Node>& documents, const std::vector<Pending>& pending,
                    std::vector<doc::Node>* read = nullptr) {
  auto reread = yaml::ReadStream(text, source_name);
  if (!reread.ok() || reread->size() != documents.size()) return false;
  std::vector<const doc::Node*> expected;
  for (const doc::Node& document : documents) expected.push_back(&document);
  for (const Pending& item : pending) expected[item.document] = &item.expected;
  for (std::size_t i = 0; i < documents.size(); ++i) {
    if ((*reread)[i] != *expected[i]) return false;
  }
  if (read != nullptr) *read = std::move(reread).value();
  return true;
}

}  // namespace

Result<FileRewrite> RewriteFile(std::string_view text, std::string_view source_name,
                                const RewriteOptions& options) {
  auto documents = yaml::ReadStream(text, source_name);
  if (!documents.ok()) return AsInputError(documents.take_error());
  if (gocompat::DecodeUtf16WithBom(text)) {
    // Read for rendering as kubectl reads it, but edits are spliced into
    // bytes, and these bytes are not the UTF-8 the edits are written in.
    return AsInputError(MakeError(Location{InternSourceName(source_name), 1, 1}, "",
                                  "cannot rewrite a UTF-16 file in place; convert it to UTF-8 first "
                                  "(iconv -f UTF-16 -t UTF-8)"));
  }
  auto spans = yaml::ReadSpans(text, source_name);
  if (!spans.ok()) return AsInputError(spans.take_error());

  FileRewrite result;
  std::vector<Pending> pending;
  for (std::size_t d = 0; d < documents->size(); ++d) {
    const doc::Node& document = (*documents)[d];
    if (const doc::Node* items = document.is_mapping() ? document.Find("items") : nullptr;
        items != nullptr && items->is_sequence()) {
      // A List's items have no text of their own to splice reliably.
      for (const doc::Node& item : items->items()) {
        if (!IsTrainJob(item) || !PlanTrainJob(item, options.manager, options.shape).has_v21_fields) continue;
        TrainJobMigration migration;
        migration.namespace_ = MetadataString(item, "namespace");
        migration.name = MetadataString(item, "name");
        migration.location = item.location();
        migration.before = migration.after = item;
        migration.failed = true;
        result.trainjobs.push_back(std::move(migration));
        result.errors.push_back(AsInputError(MakeError(
            item.location(), "", "a TrainJob inside a List is not rewritten; migrate it by hand")));
      }
      continue;
    }
    if (!IsTrainJob(document)) continue;
    TrainJobMigration migration;
    migration.namespace_ = MetadataString(document, "namespace");
    migration.name = MetadataString(document, "name");
    migration.location = document.location();
    migration.before = document;
    migration.after = document;
    result.trainjobs.push_back(std::move(migration));

    Plan plan = PlanTrainJob(document, options.manager, options.shape);
    if (!plan.has_v21_fields) continue;
    if (!plan.errors.empty()) {
      result.trainjobs.back().failed = true;
      result.errors.insert(result.errors.end(), plan.errors.begin(), plan.errors.end());
      continue;
    }
    const yaml::SpanNode* root = nullptr;
    for (const yaml::SpanNode& candidate : *spans) {
      if (candidate.line == document.location().line &&
          candidate.column == document.location().column) {
        root = &candidate;
      }
    }
    auto refuse = [&](Diagnostic error) {
      result.trainjobs.back().failed = true;
      error.location = document.location();
      result.errors.push_back(AsInputError(std::move(error)));
    };
    if (root == nullptr || root->kind != yaml::SpanNode::Kind::kMapping) {
      refuse(MakeError({}, "", "cannot rewrite the file in place: the document's text was not found"));
      continue;
    }
    auto splice = SpliceTrainJob(text, *root, document, plan);
    if (!splice.ok()) {
      refuse(splice.take_error());
      continue;
    }
    Pending item{result.trainjobs.size() - 1, d, std::move(splice->edits),
                 std::move(splice->expected)};
    // Each TrainJob's splice must read back as planned on its own.
    if (!ReadsAsPlanned(Apply(text, item.edits), source_name, *documents, {item})) {
      refuse(MakeError({}, "spec",
                       "cannot rewrite the file in place: the rewritten text would not read back "
                       "as planned (anchors, aliases or an unusual layout); "
                       "migrate this TrainJob by hand"));
      continue;
    }
    pending.push_back(std::move(item));
  }

  std::vector<Edit> all;
  for (const Pending& item : pending) all.insert(all.end(), item.edits.begin(), item.edits.end());
  result.text = Apply(text, all);
  std::vector<doc::Node> reread;
  if (!ReadsAsPlanned(result.text, source_name, *documents, pending, &reread)) {
    // Splices that work alone but not together: leave the file as it was.
    result.text = std::string(text);
    result.before = *documents;
    result.after = *documents;
    for (const Pending& item : pending) {
      result.trainjobs[item.trainjob].failed = true;
      result.errors.push_back(AsInputError(MakeError(
          result.trainjobs[item.trainjob].location, "spec",
          "cannot rewrite the file in place: the rewrites of its TrainJobs do not combine")));
    }
    return result;
  }
  result.before = *documents;
  result.after = std::move(reread);
  for (const Pending& item : pending) {
    result.trainjobs[item.trainjob].changed = true;
    result.trainjobs[item.trainjob].after = result.after[item.document];
  }
  return result;
}

}  // namespace tjr::migrate
