#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "doc/node.h"

// The paths that name the nodes of a rendered object in an explanation
// (Field::path): `spec.replicatedJobs[name=node].template.spec...env[name=X]`.
// The chains and every format build them here, so that a path one of them
// prints is one the others find.
namespace tjr::explain {

/// The path of the value of `key` in the mapping at `parent`: `parent.key`,
/// or `parent[key]` for a key that is not a plain identifier (it holds '.',
/// '/', '[', ']', '=' or a space, or is empty), such as
/// `metadata.labels[app.kubernetes.io/name]`. The object's own keys have
/// no leading dot.
std::string ChildPath(const std::string& parent, std::string_view key);

/// The key that names the items of `list`: the first of "name",
/// "mountPath", "containerPort" and "key" that every item (a mapping) holds
/// as a non-null scalar distinct from every other item's; "" when none does
/// or the list is empty. The same rule as `tjrender diff`'s keyed lists.
std::string ListKeyOf(const doc::Node& list);

/// The path of item `index` of the `list` at `parent`: `parent[name=value]`
/// when the list has a ListKeyOf (a string value as is, any other as JSON),
/// `parent[index]` otherwise. Computes ListKeyOf each call: a caller that
/// walks a whole list should call ListKeyOf once and use the overload below.
std::string ItemPath(const std::string& parent, const doc::Node& list, std::size_t index);
std::string ItemPath(const std::string& parent, const doc::Node& list, std::size_t index,
                     std::string_view list_key);

/// True for a list whose items are all scalars (or that is empty): it is one
/// value, and its items have no path of their own.
bool IsScalarList(const doc::Node& list);

}  // namespace tjr::explain
