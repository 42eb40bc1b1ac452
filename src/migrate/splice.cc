#include "migrate/splice.h"

#include <algorithm>
#include <utility>

#include "json/json.h"
#include "migrate/emit.h"

namespace tjr::migrate {
namespace {

using Entry = yaml::SpanNode::Entry;

constexpr const char* kOldFields[] = {"podTemplateOverrides", "labels", "annotations"};

std::size_t LineStart(std::string_view text, std::size_t pos) {
  while (pos > 0 && text[pos - 1] != '\n') --pos;
  return pos;
}

std::size_t LineEndAfter(std::string_view text, std::size_t pos) {
  if (pos > 0 && text[pos - 1] == '\n') return pos;
  const std::size_t newline = text.find('\n', pos);
  return newline == std::string_view::npos ? text.size() : newline + 1;
}

// The edits and the expected document of one TrainJob.
class TrainJobRewriter {
 public:
  TrainJobRewriter(std::string_view text, const yaml::SpanNode& root, const doc::Node& document,
                   const Plan& plan)
      : text_(text), root_(root), document_(document), plan_(plan) {}

  // Fails with a message when the file's text does not allow the splice.
  Result<std::vector<Edit>> Edits() {
    const Entry* spec_entry = root_.Find("spec");
    if (spec_entry == nullptr || spec_entry->value.kind != yaml::SpanNode::Kind::kMapping) {
      return Refuse("spec is not written as a mapping of its own (an alias?)");
    }
    spec_ = &spec_entry->value;
    const doc::Node& spec = *document_.Find("spec");
    for (const char* name : kOldFields) {
      const Entry* entry = spec_->Find(name);
      if (spec.Find(name) != nullptr && entry == nullptr) {
        return Refuse(std::string("spec.") + name + " comes from a YAML merge key");
      }
      if (entry != nullptr) old_.push_back(entry);
    }
    std::sort(old_.begin(), old_.end(),
              [](const Entry* a, const Entry* b) { return a->key.begin < b->key.begin; });
    style_ = DetectStyle(text_, root_);
    flow_ = spec_->flow;
    const Entry* overrides = spec_->Find("podTemplateOverrides");
    if (!flow_ && overrides != nullptr && overrides->value.flow) {
      flow_ = true;
      for (const Entry* entry : old_) {
        const auto& value = entry->value;
        if (value.kind != yaml::SpanNode::Kind::kScalar && !value.flow) flow_ = false;
      }
    }
    if (spec_->flow) style_.quote_keys = text_[spec_->entries.front().key.begin] == '"';
    for (const PlannedPatch& patch : plan_.patches) {
      for (const PlannedJob& job : patch.jobs) {
        if (TargetName(job) == nullptr) {
          return Refuse("spec.podTemplateOverrides is written through an alias or merge key");
        }
      }
    }

    std::vector<Edit> edits;
    for (std::size_t i = 0; i < old_.size(); ++i) {
      const bool replace = i == 0 && !plan_.patches.empty();
      if (replace) {
        edits.push_back(Replacement(*old_[0]));
      } else {
        edits.push_back(Deletion(*old_[i]));
      }
    }
    return edits;
  }

  // What the document must read as once the edits are made.
  doc::Node Expected() const {
    doc::Node expected = document_;
    doc::Node* spec = expected.FindMutable("spec");
    std::vector<doc::Field> fields;
    const std::string first = old_.empty() ? std::string() : old_.front()->key.text;
    for (const doc::Field& field : spec->fields()) {
      const bool old = std::find_if(std::begin(kOldFields), std::end(kOldFields),
                                    [&](const char* name) { return field.key == name; }) !=
                       std::end(kOldFields);
      if (!old) {
        fields.push_back(field);
      } else if (field.key == first && !plan_.patches.empty()) {
        fields.push_back({FieldName(plan_.shape), plan_.runtime_patches, field.key_location});
      }
    }
    spec->mutable_fields() = std::move(fields);
    return expected;
  }

 private:
  static Diagnostic Refuse(std::string message) {
    return MakeError(Location{}, "spec", "cannot rewrite the file in place: " + std::move(message));
  }

  std::string Quoted(std::string value) const {
    if (!style_.quote_keys) return ScalarText(value);
    std::string quoted;
    json::AppendQuoted(value, &quoted);
    return quoted;
  }

  OutValue Field(const Entry* entry) const {
    OutValue value = OutValue::Copy(entry);
    value.with_comment = !flow_;
    return value;
  }

  // The span of a planned job's name, or nullptr when the text does not
  // hold it where the data has it (aliases, merge keys).
  const yaml::SpanNode* TargetName(const PlannedJob& job) const {
    const Entry* overrides = spec_->Find("podTemplateOverrides");
    if (overrides == nullptr || overrides->value.kind != yaml::SpanNode::Kind::kSequence ||
        job.override_index >= overrides->value.items.size()) {
      return nullptr;
    }
    const Entry* targets = overrides->value.items[job.override_index].Find("targetJobs");
    if (targets == nullptr || job.target_index >= targets->value.items.size()) return nullptr;
    const Entry* name = targets->value.items[job.target_index].Find("name");
    if (name == nullptr || name->value.kind != yaml::SpanNode::Kind::kScalar) return nullptr;
    return &name->value;
  }

  OutValue Metadata() const {
    OutValue metadata;
    for (const char* name : {"labels", "annotations"}) {
      const doc::Node* value = document_.Find("spec")->Find(name);
      if (value != nullptr && !value->empty()) {
        metadata.fields.emplace_back(name, Field(spec_->Find(name)));
      }
    }
    return metadata;
  }

  // templateOverrides (PR #3199 preview): one entry per override.
  OutValue PreviewEntries() const {
    const Entry* overrides = spec_->Find("podTemplateOverrides");
    OutValue list;
    list.kind = OutValue::Kind::kSequence;
    for (const PlannedPatch& patch : plan_.patches) {
      OutValue item;
      item.fields.emplace_back("manager", OutValue::Scalar(Quoted(patch.manager)));
      if (patch.jobset_metadata) {
        OutValue job;
        job.fields.emplace_back("metadata", Metadata());
        OutValue jobs;
        jobs.kind = OutValue::Kind::kSequence;
        jobs.items.push_back(std::move(job));
        item.fields.emplace_back("job", std::move(jobs));
      }
      if (!patch.jobs.empty()) {
        const yaml::SpanNode& override = overrides->value.items[patch.jobs.front().override_index];
        OutValue pod;
        for (const char* part : {"targetJobs", "metadata", "spec"}) {
          if (const Entry* field = override.Find(part)) pod.fields.emplace_back(part, Field(field));
        }
        OutValue pods;
        pods.kind = OutValue::Kind::kSequence;
        pods.items.push_back(std::move(pod));
        item.fields.emplace_back("pod", std::move(pods));
      }
      list.items.push_back(std::move(item));
    }
    return list;
  }

  OutValue Patches() const {
    if (plan_.shape == Shape::kTemplateOverridesPreview) return PreviewEntries();
    const Entry* overrides = spec_->Find("podTemplateOverrides");
    OutValue list;
    list.kind = OutValue::Kind::kSequence;
    for (const PlannedPatch& patch : plan_.patches) {
      OutValue template_patch;
      if (patch.jobset_metadata) template_patch.fields.emplace_back("metadata", Metadata());
      if (!patch.jobs.empty()) {
        OutValue jobs;
        jobs.kind = OutValue::Kind::kSequence;
        for (const PlannedJob& job : patch.jobs) {
          const yaml::SpanNode& override = overrides->value.items[job.override_index];
          const yaml::SpanNode& name = *TargetName(job);
          OutValue entry;
          entry.fields.emplace_back(
              "name", OutValue::Scalar(std::string(text_.substr(name.begin, name.end - name.begin))));
          OutValue pod;
          for (const char* part : {"metadata", "spec"}) {
            if (const Entry* field = override.Find(part)) pod.fields.emplace_back(part, Field(field));
          }
          if (!pod.fields.empty()) {
            OutValue job_spec;
            job_spec.fields.emplace_back("template", std::move(pod));
            OutValue job_template;
            job_template.fields.emplace_back("spec", std::move(job_spec));
            entry.fields.emplace_back("template", std::move(job_template));
          }
          jobs.items.push_back(std::move(entry));
        }
        OutValue spec;
        spec.fields.emplace_back("replicatedJobs", std::move(jobs));
        template_patch.fields.emplace_back("spec", std::move(spec));
      }
      OutValue runtime_spec;
      runtime_spec.fields.emplace_back("template", std::move(template_patch));
      OutValue item;
      item.fields.emplace_back("manager", OutValue::Scalar(Quoted(patch.manager)));
      item.fields.emplace_back("trainingRuntimeSpec", std::move(runtime_spec));
      list.items.push_back(std::move(item));
    }
    return list;
  }

  Edit Replacement(const Entry& entry) const {
    // A comment ending the old value's last line goes with the copied value.
    const std::size_t end = EntryEnd(text_, entry);
    Edit edit{entry.key.begin, flow_ ? end : TrailingCommentEnd(text_, end), {}};
    const OutValue patches = Patches();
    const char* field = FieldName(plan_.shape);
    edit.replacement = flow_ ? EmitFlowEntry(text_, style_, field, patches)
                             : EmitBlockEntry(text_, style_, ColumnOf(text_, entry.key.begin),
                                              field, patches);
    return edit;
  }

  Edit Deletion(const Entry& entry) const {
    const std::size_t end = EntryEnd(text_, entry);
    if (!spec_->flow) {
      const std::size_t start = LineStart(text_, entry.key.begin);
      const bool own_line = text_.substr(start, entry.key.begin - start)
                                .find_first_not_of(" \t") == std::string_view::npos;
      if (own_line) return Edit{start, LineEndAfter(text_, end), {}};
      return Edit{entry.key.begin, end, {}};
    }
    // In a flow mapping the separating comma goes with the entry: the one
    // before it, or the one after it for the first entry.
    const auto& entries = spec_->entries;
    std::size_t index = 0;
    while (&entries[index] != &entry) ++index;
    if (index > 0) return Edit{EntryEnd(text_, entries[index - 1]), end, {}};
    if (index + 1 < entries.size()) return Edit{entry.key.begin, entries[index + 1].key.begin, {}};
    return Edit{entry.key.begin, end, {}};
  }

  std::string_view text_;
  const yaml::SpanNode& root_;
  const doc::Node& document_;
  const Plan& plan_;
  const yaml::SpanNode* spec_ = nullptr;
  std::vector<const Entry*> old_;
  TextStyle style_;
  bool flow_ = false;
};

}  // namespace

std::string Apply(std::string_view text, std::vector<Edit> edits) {
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  std::string out;
  std::size_t pos = 0;
  for (const Edit& edit : edits) {
    out.append(text.substr(pos, edit.begin - pos));
    out += edit.replacement;
    pos = edit.end;
  }
  out.append(text.substr(pos));
  return out;
}

Result<TrainJobSplice> SpliceTrainJob(std::string_view text, const yaml::SpanNode& root,
                                      const doc::Node& document, const Plan& plan) {
  TrainJobRewriter rewriter(text, root, document, plan);
  auto edits = rewriter.Edits();
  if (!edits.ok()) return edits.take_error();
  return TrainJobSplice{std::move(edits).value(), rewriter.Expected()};
}

}  // namespace tjr::migrate
