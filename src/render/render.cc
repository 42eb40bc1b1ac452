#include "render/render.h"

#include <string>

#include "render/go_types.h"
#include "render/info.h"
#include "render/plugins.h"
#include "render/runtime_snapshot.h"
#include "doc/path.h"
#include "render/tree.h"
#include "typed/quantity.h"
#include "typed/round_trip.h"

namespace tjr::render {
namespace {

// The TrainJob fields the plugins copy, in the form the typed TrainJob
// holds them: env lists decoded as []corev1.EnvVar, resourcesPerNode
// quantities canonical (a present empty map stays: it is non-nil in Go).
Status TypeEnv(doc::Node* section, const GoTypes& types) {
  doc::Node* env = section->FindMutable("env");
  if (env == nullptr || env->is_null()) return Ok();
  Result<doc::Node> typed_env = typed::TypedRoundTrip(*env, *types.container->FindField("env")->type);
  if (!typed_env.ok()) return typed_env.take_error();
  *env = *std::move(typed_env);
  return Ok();
}

Status TypeResources(doc::Node* rpn) {
  for (std::string_view key : {"limits", "requests"}) {
    doc::Node* list = rpn->FindMutable(key);
    if (list == nullptr || !list->is_mapping()) continue;
    for (doc::Field& f : list->mutable_fields()) {
      typed::Quantity q;
      if (Status s = q.UnmarshalJson(f.value); !s.ok()) {
        // Located at the value, as every error the user can act on is.
        Diagnostic error = s.take_error();
        error.location = f.value.location();
        error.field_path = "spec.trainer.resourcesPerNode." + std::string(key) + "[" + f.key + "]";
        return error;
      }
      f.value = doc::Node::String(q.String(), f.value.location());
    }
  }
  return Ok();
}

Result<doc::Node> PrepareTrainJob(const doc::Node& trainjob, const GoTypes& types) {
  doc::Node out = trainjob;
  doc::Node* spec = out.FindMutable("spec");
  if (spec == nullptr) return out;
  if (doc::Node* trainer = spec->FindMutable("trainer"); trainer != nullptr && trainer->is_mapping()) {
    if (Status s = TypeEnv(trainer, types); !s.ok()) return s.take_error();
    if (doc::Node* rpn = trainer->FindMutable("resourcesPerNode"); rpn != nullptr && rpn->is_mapping()) {
      if (Status s = TypeResources(rpn); !s.ok()) return s.take_error();
    }
  }
  if (doc::Node* init = spec->FindMutable("initializer"); init != nullptr && init->is_mapping()) {
    for (std::string_view key : {"dataset", "model"}) {
      doc::Node* section = init->FindMutable(key);
      if (section == nullptr || !section->is_mapping()) continue;
      if (Status s = TypeEnv(section, types); !s.ok()) return s.take_error();
    }
  }
  return out;
}

}  // namespace

Result<RenderedObjects> Render(const doc::Node& trainjob_in, const doc::Node& runtime, const RenderOptions& options) {
  // v2.3.0 (#3681): a TrainJob managed by another controller (MultiKueue)
  // is not reconciled at all (trainjob_controller.go:89-91).
  if (const doc::Node* managed_by = doc::FindPath(trainjob_in, {"spec", "managedBy"});
      trainer::ReleaseOf(options.version).skip_foreign_managed_by && managed_by != nullptr && managed_by->is_string() &&
      managed_by->string_value() != "trainer.kubeflow.org/trainjob-controller") {
    RenderedObjects none;
    Diagnostic note = MakeError(managed_by->location(), "spec.managedBy",
                                "nothing is rendered: the Trainer controller skips TrainJobs managed by " +
                                    managed_by->string_value());
    note.severity = Severity::kNote;
    none.notes.push_back(std::move(note));
    return none;
  }
  // v2.3.0 applies the snapshot before it builds anything else, from the
  // runtime it is about to use (trainingruntime.go:91-106).
  doc::Node snapshot;
  if (options.runtime_snapshot) {
    Result<doc::Node> built_snapshot =
        RuntimeSnapshot(trainjob_in, runtime, options.version, options.runtime_snapshot_text);
    if (!built_snapshot.ok()) return built_snapshot.take_error();
    snapshot = *std::move(built_snapshot);
  }
  Result<const GoTypes*> types = LoadGoTypes(options.version);
  if (!types.ok()) return types.take_error();
  Result<doc::Node> prepared = PrepareTrainJob(trainjob_in, **types);
  if (!prepared.ok()) return prepared.take_error();
  doc::Node trainjob = *std::move(prepared);

  // PrepareTrainJob leaves podTemplateOverrides alone, so a merge made from
  // the unprepared TrainJob is the same.
  Result<Info> built = BuildInfo(trainjob, runtime, options.merged_jobset_spec, options.version);
  if (!built.ok()) return built.take_error();
  Info& info = *built;

  // Registry source order; from v2.2.0 PlainML also acts beside XGBoost and
  // Flux, so the order of those fixes the env order (upstream: Go map
  // order). Flux touches no env, and its command rewrite is read only by
  // the builder.
  RenderTrace* trace = options.trace;
  auto stage = [&](const char* layer) {
    if (trace != nullptr) trace->stages.push_back({layer, BuildJobSet(info, trainjob)});
  };
  stage("builder");
  EnforcePlainML(&info, trainjob);
  stage("plugin plainml");
  if (Status s = EnforceTorch(&info, &trainjob); !s.ok()) return s.take_error();
  stage("plugin torch");
  if (Status s = EnforceMPI(&info, trainjob); !s.ok()) return s.take_error();
  stage("plugin mpi");
  if (trainer::ReleaseOf(info.version).jax_xgboost_flux_plugins) {
    EnforceJAX(&info, trainjob);
    stage("plugin jax");
    if (Status s = EnforceXGBoost(&info, trainjob); !s.ok()) return s.take_error();
    stage("plugin xgboost");
    if (Status s = EnforceFlux(&info, &trainjob); !s.ok()) return s.take_error();
    stage("plugin flux");
  }
  EnforceCoScheduling(&info, trainjob);
  stage("plugin coscheduling");
  EnforceVolcano(&info, trainjob);
  stage("plugin volcano");
  IdentifyPodNetwork(&info, trainjob);
  stage("plugin jobset");

  RenderedObjects out;
  auto built_by = [&](const char* builder) {
    if (trace != nullptr) trace->builders.emplace_back(builder);
  };
  if (!snapshot.is_null()) {
    out.objects.push_back(std::move(snapshot));
    built_by("runtime snapshot");
  }
  if (doc::Node group = BuildCoSchedulingPodGroup(info, trainjob); !group.is_null()) {
    out.objects.push_back(std::move(group));
    built_by("plugin coscheduling");
  }
  if (doc::Node group = BuildVolcanoPodGroup(info, trainjob); !group.is_null()) {
    out.objects.push_back(std::move(group));
    built_by("plugin volcano");
  }
  Result<doc::Node> hostfile = BuildMPIHostfile(info, trainjob);
  if (!hostfile.ok()) return hostfile.take_error();
  if (doc::Node config_map = *std::move(hostfile); !config_map.is_null()) {
    const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
    Diagnostic note = MakeNote(trainjob.location(), kSecretNotRenderedRule,
                               "Secret " + name + "-mpi-ssh-auth is not rendered: the Trainer controller "
                               "creates it with a freshly generated random SSH key");
    out.notes.push_back(std::move(note));
    out.objects.push_back(std::move(config_map));
    built_by("plugin mpi");
  }
  if (trainer::ReleaseOf(info.version).jax_xgboost_flux_plugins) {
    Result<doc::Node> flux = BuildFluxConfigMap(info, trainjob);
    if (!flux.ok()) return flux.take_error();
    if (!flux->is_null()) {
      const std::string name = doc::StringAtPath(trainjob, {"metadata", "name"});
      Diagnostic note = MakeNote(trainjob.location(), kSecretNotRenderedRule,
                                 "Secret " + name + "-flux-curve is not rendered: the Trainer controller "
                                 "derives its CURVE key pair from the TrainJob's UID, which the API server assigns");
      out.notes.push_back(std::move(note));
      out.objects.push_back(*std::move(flux));
      built_by("plugin flux");
    }
  }
  out.objects.push_back(BuildJobSet(info, trainjob));
  built_by("builder");
  return out;
}

}  // namespace tjr::render
