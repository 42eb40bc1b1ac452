#include "explain/json_format.h"

#include <cstdint>
#include <string>

#include "explain/formats.h"
#include "json/json.h"

namespace tjr::explain {
namespace {

using doc::Node;

Node Index(std::size_t value) { return Node::Int(static_cast<std::int64_t>(value)); }

// A string field of the object ("" when absent or not a string): the JSON
// names every object even when it lacks a name.
std::string StringAt(const Node& object, std::string_view section, std::string_view key) {
  const Node* parent = section.empty() ? &object : object.Find(section);
  const Node* value = parent != nullptr ? parent->Find(key) : nullptr;
  return value != nullptr && value->is_string() ? value->string_value() : std::string();
}

Node LayerDocument(std::size_t index, const Layer& layer) {
  Node out = Node::Mapping();
  out.Set("index", Index(index));
  out.Set("kind", Node::String(LayerKindName(layer.kind)));
  out.Set("name", Node::String(layer.name));
  if (layer.location.known()) out.Set("location", LocationDocument(layer.location));
  return out;
}

Node StepDocument(const Step& step) {
  Node out = Node::Mapping();
  out.Set("layer", Index(step.layer));
  out.Set("action", Node::String(step.action == Action::kDeleted ? "deleted" : "set"));
  if (step.action == Action::kSet) out.Set("value", step.value);
  if (step.location.known()) out.Set("location", LocationDocument(step.location));
  if (!step.detail.empty()) out.Set("detail", Node::String(step.detail));
  return out;
}

Node FieldDocument(const Field& field) {
  Node out = Node::Mapping();
  out.Set("path", Node::String(field.path));
  out.Set("present", Node::Bool(field.present));
  if (!field.order.empty()) out.Set("order", Node::String(field.order));
  Node chain = Node::Sequence();
  for (const Step& step : field.chain) chain.push_back(StepDocument(step));
  out.Set("chain", std::move(chain));
  return out;
}

Node ObjectDocument(const ObjectExplanation& object) {
  Node out = Node::Mapping();
  out.Set("apiVersion", Node::String(StringAt(object.object, "", "apiVersion")));
  out.Set("kind", Node::String(StringAt(object.object, "", "kind")));
  std::string ns = StringAt(object.object, "metadata", "namespace");
  if (!ns.empty()) out.Set("namespace", Node::String(std::move(ns)));
  out.Set("name", Node::String(StringAt(object.object, "metadata", "name")));
  out.Set("object", object.object);
  Node fields = Node::Sequence();
  for (const Field& field : object.fields) fields.push_back(FieldDocument(field));
  out.Set("fields", std::move(fields));
  return out;
}

}  // namespace

Node LocationDocument(const Location& at) {
  Node out = Node::Mapping();
  out.Set("file", Node::String(at.file != nullptr ? *at.file : std::string()));
  if (at.line != 0) {
    out.Set("line", Node::Int(at.line));
    out.Set("column", Node::Int(at.column));
  }
  return out;
}

Node ExplanationDocument(const Explanation& explanation) {
  Node out = Node::Mapping();
  out.Set("format", Node::String("tjrender-explain/v1"));
  out.Set("subject", Node::String(explanation.subject));
  out.Set("target", Node::String(explanation.target));
  Node layers = Node::Sequence();
  for (std::size_t i = 0; i < explanation.layers.size(); ++i) {
    layers.push_back(LayerDocument(i, explanation.layers[i]));
  }
  out.Set("layers", std::move(layers));
  Node objects = Node::Sequence();
  for (const ObjectExplanation& object : explanation.objects) objects.push_back(ObjectDocument(object));
  out.Set("objects", std::move(objects));
  return out;
}

std::string FormatJson(const Explanation& explanation) {
  return json::Write(ExplanationDocument(explanation), /*pretty=*/true);
}

}  // namespace tjr::explain
