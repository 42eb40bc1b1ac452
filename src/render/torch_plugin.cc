// Torch and TorchTune (plugins/torch/torch.go, torchtune.go at v2.1.0;
// spec §1.5.2).
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "render/plugins.h"
#include "render/tree.h"
#include "render/upsert.h"

namespace tjr::render {
namespace {

constexpr int kTrainerPort = 29500;

// intstr.IntOrString as the plugin sees it.
struct ProcPerNode {
  bool is_int = false;
  std::int64_t int_value = 0;
  std::string string_value;
  std::string String() const { return is_int ? std::to_string(int_value) : string_value; }
};

ProcPerNode FromNode(const doc::Node& value) {
  ProcPerNode out;
  if (value.is_int()) {
    out.is_int = true;
    out.int_value = value.int_value();
  } else if (value.is_string()) {
    out.string_value = value.string_value();
  }
  return out;
}

// getNumCPUPerNode: requests.cpu when present and non-zero, else limits.cpu.
std::int64_t CpuCount(const NodeResources& resources) {
  auto request = resources.requests.find("cpu");
  if (request == resources.requests.end() || request->second.is_zero()) {
    auto limit = resources.limits.find("cpu");
    return limit != resources.limits.end() ? limit->second.Value() : 0;
  }
  return request->second.Value();
}

bool ArgsContain(const doc::Node* args, std::string_view needle) {
  if (args == nullptr) return false;
  for (const doc::Node& arg : args->items()) {
    if (arg.is_string() && arg.string_value().find(needle) != std::string::npos) return true;
  }
  return false;
}

bool UsesQLoRA(const doc::Node* args) {
  bool quantize = false;
  if (args == nullptr) return false;
  for (const doc::Node& arg : args->items()) {
    if (!arg.is_string()) continue;
    if (arg.string_value().find("model.use_dora") != std::string::npos) return false;
    if (arg.string_value().find("model.quantize_base") != std::string::npos) quantize = true;
  }
  return quantize;
}

// getModelFromRuntimeRef: "torchtune-llama3.2-1b" -> "llama3_2/1B".
std::string ModelFromRuntimeName(const std::string& name) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    std::size_t dash = name.find('-', start);
    fields.push_back(name.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
    if (dash == std::string::npos) break;
    start = dash + 1;
  }
  if (fields.size() != 3) return "";
  std::string family = fields[1];
  std::replace(family.begin(), family.end(), '.', '_');
  std::string size = fields[2];
  std::transform(size.begin(), size.end(), size.begin(), [](unsigned char c) { return std::toupper(c); });
  return family + "/" + size;
}

std::pair<std::string, std::string> RecipeAndConfig(std::int64_t num_nodes, const ProcPerNode& npp,
                                                    std::int64_t gpu, const doc::Node& trainjob) {
  const doc::Node* args = Get(trainjob, {"spec", "trainer", "args"});
  std::string recipe = "full_finetune_distributed";
  std::string suffix = "_full";
  if (num_nodes == 1 && ((npp.is_int && npp.int_value == 1) || gpu == 1)) {
    if (UsesQLoRA(args)) {
      recipe = "lora_finetune_single_device";
      suffix = "_qlora_single_device";
    } else if (ArgsContain(args, "model.lora_attn_modules")) {
      recipe = "lora_finetune_single_device";
      suffix = "_lora_single_device";
    } else {
      recipe = "full_finetune_single_device";
      suffix = "_full_single_device";
    }
  } else if (num_nodes == 1 && UsesQLoRA(args)) {
    recipe = "lora_finetune_distributed";
    suffix = "_qlora";
  } else if (num_nodes == 1 && ArgsContain(args, "model.lora_attn_modules")) {
    recipe = "lora_finetune_distributed";
    suffix = "_lora";
  } else if (num_nodes > 1) {
    suffix = "_full_multinode";
  }
  return {recipe, ModelFromRuntimeName(GetString(trainjob, {"spec", "runtimeRef", "name"})) + suffix};
}

// extractOverridesFromRuntime: the runtime trainer `node` command items
// whose key (before the first '=') is one of the immutable configs.
std::vector<std::string> ImmutableOverrides(const Info& info) {
  std::vector<std::string> out;
  const doc::Node* jobs = info.jobset_spec.Find("replicatedJobs");
  if (jobs == nullptr) return out;
  for (const doc::Node& job : jobs->items()) {
    if (GetString(job, {"template", "metadata", "labels", kAncestorLabel}) != kAncestorTrainer) continue;
    const doc::Node* containers = Get(job, {"template", "spec", "template", "spec", "containers"});
    if (containers == nullptr) continue;
    for (const doc::Node& c : containers->items()) {
      if (GetString(c, {"name"}) != kNode) continue;
      const doc::Node* command = c.Find("command");
      if (command == nullptr) continue;
      for (const doc::Node& item : command->items()) {
        if (!item.is_string()) continue;
        const std::string& s = item.string_value();
        const std::string key = s.substr(0, s.find('='));
        if (key == "output_dir" || key == "tokenizer.path" || key == "checkpointer.checkpoint_dir" ||
            key == "tokenizer.merges_file") {
          out.push_back(s);
        }
      }
    }
  }
  return out;
}

bool IsTorchTuneCommand(const doc::Node* command) {
  if (command == nullptr || command->size() != 2) return false;
  const doc::Node& a = (*command)[0];
  const doc::Node& b = (*command)[1];
  return a.is_string() && b.is_string() && a.string_value() == "tune" && b.string_value() == "run";
}

}  // namespace

Status EnforceTorch(Info* info, doc::Node* trainjob) {
  if (info->ml_policy.is_null()) return Ok();
  const doc::Node* torch = info->ml_policy.Find("torch");
  if (torch == nullptr || torch->is_null()) return Ok();

  const doc::Node* trainer = Get(*trainjob, {"spec", "trainer"});
  if (trainer != nullptr && trainer->is_null()) trainer = nullptr;
  PodSet* trainer_ps = info->FindPodSetByAncestor(kAncestorTrainer);
  if (trainer_ps != nullptr && trainer != nullptr) {
    if (const doc::Node* n = trainer->Find("numNodes"); n != nullptr && n->is_int()) {
      trainer_ps->count = static_cast<std::int32_t>(n->int_value());
    }
  }

  ProcPerNode npp;
  npp.string_value = "auto";
  if (const doc::Node* v = torch->Find("numProcPerNode"); v != nullptr && !v->is_null()) npp = FromNode(*v);
  if (trainer != nullptr) {
    if (const doc::Node* v = trainer->Find("numProcPerNode"); v != nullptr && !v->is_null()) npp = FromNode(*v);
  }

  Result<NodeResources> resources = TrainerResources(*info, *trainjob);
  if (!resources.ok()) return resources.take_error();
  const std::int64_t gpu = GpuCount(*resources);
  if (npp.String() == "cpu" || (npp.String() == "auto" && gpu == 0)) {
    npp = ProcPerNode{true, std::max<std::int64_t>(1, CpuCount(*resources)), {}};
  }

  if (trainer == nullptr) return Ok();
  PodSetContainer* container = info->FindContainer(kAncestorTrainer, kNode);
  if (container == nullptr) return Ok();
  UpsertEnvVars(&container->env, ConvertEnvVars(trainer->Find("env")));

  const std::int64_t num_nodes = trainer_ps != nullptr ? trainer_ps->count : 1;
  const std::string name = GetString(*trainjob, {"metadata", "name"});
  doc::Node pet = doc::Node::Sequence();
  pet.push_back(EnvValue("PET_NNODES", std::to_string(num_nodes)));
  pet.push_back(EnvValue("PET_NPROC_PER_NODE", npp.String()));
  doc::Node rank = doc::Node::Mapping();
  rank.Set("name", doc::Node::String("PET_NODE_RANK"));
  doc::Node field_ref = doc::Node::Mapping();
  field_ref.Set("fieldPath", doc::Node::String("metadata.annotations['batch.kubernetes.io/job-completion-index']"));
  ChildPath(&rank, {"valueFrom"}).Set("fieldRef", std::move(field_ref));
  pet.push_back(std::move(rank));
  UpsertEnvVars(&container->env, pet);

  const doc::Node* command = trainer->Find("command");
  if (!IsTorchTuneCommand(command)) {
    doc::Node master = doc::Node::Sequence();
    master.push_back(EnvValue("PET_MASTER_ADDR", name + "-node-0-0." + name));
    master.push_back(EnvValue("PET_MASTER_PORT", std::to_string(kTrainerPort)));
    UpsertEnvVars(&container->env, master);
  } else {
    doc::Node new_command = *command;
    if (num_nodes > 1 || (npp.is_int && npp.int_value > 1) || (!npp.is_int && gpu > 1)) {
      new_command.push_back(doc::Node::String("--rdzv_endpoint=" + name + "-node-0-0." + name + ":" +
                                              std::to_string(kTrainerPort)));
    }
    auto [recipe, config] = RecipeAndConfig(num_nodes, npp, gpu, *trainjob);
    new_command.push_back(doc::Node::String(recipe));
    new_command.push_back(doc::Node::String("--config"));
    new_command.push_back(doc::Node::String(config));
    for (std::string& item : ImmutableOverrides(*info)) new_command.push_back(doc::Node::String(std::move(item)));
    ChildPath(trainjob, {"spec", "trainer"}).Set("command", std::move(new_command));
  }

  doc::Node port = doc::Node::Mapping();
  port.Set("containerPort", doc::Node::Int(kTrainerPort));
  doc::Node ports = doc::Node::Sequence();
  ports.push_back(std::move(port));
  UpsertPorts(&container->ports, ports);
  return Ok();
}

}  // namespace tjr::render
