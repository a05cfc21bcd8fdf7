#include "core/catalog/catalog.hpp"

namespace lastro::catalog {
namespace {

// The host's own operations, declared exactly like a plugin's so that routing, pricing and
// the schema treat them alike.
constexpr const char* kCoreManifest = R"yaml(
name: core
version: 1.0.0
description: Operations served by the host itself
library: (built-in)
operations:
  - id: schema.read
    path: /v1/schema
    summary: Entities, published resources with their fields and units, data sources and planned resources
    price: 1
    scope: schema
    pagination: none
    response:
      entity: schema
      shape: object
      fields:
        - {name: contract_version, type: string, description: Version of the API contract}
        - name: entities
          type: array
          description: The entities the resources describe
          fields:
            - {name: name, type: string, description: Entity name}
            - {name: description, type: string, description: What the entity is}
            - {name: id_field, type: string, description: The field holding its persistent id}
            - {name: plugin, type: string, description: The plugin that serves it}
        - name: resources
          type: array
          description: Every published operation with its parameters and response fields
          fields:
            - {name: operation, type: string, description: Billing operation name}
            - {name: method, type: string, description: HTTP method}
            - {name: path, type: string, description: Path template}
            - {name: summary, type: string, description: What it returns}
            - {name: price, type: integer, unit: credits, description: Price per call}
            - {name: scope, type: string, description: Key scope it needs}
            - {name: pagination, type: string, description: "cursor, offset or none"}
            - {name: entity, type: string, description: Entity of the rows}
            - {name: shape, type: string, description: array or object}
            - {name: formats, type: array, description: "The formats it answers in: json, and csv when its data is rows (format=)"}
            - {name: params, type: array, description: "Parameters with type, bounds and defaults"}
            - {name: fields, type: array, description: "Response fields with type, unit and nullability"}
        - name: sources
          type: array
          description: Data sources (datasets) and their official files
          fields:
            - {name: dataset, type: string, description: Dataset id}
            - {name: provider, type: string, description: Publisher}
            - {name: description, type: string, description: What the dataset holds}
            - {name: files, type: array, description: Official file names}
            - {name: plugin, type: string, description: The plugin that ingests it}
        - name: planned
          type: array
          description: Resources announced but not yet served
          fields:
            - {name: path, type: string, description: Path template}
            - {name: description, type: string, description: What it will return}
            - {name: plugin, type: string, description: The plugin that will serve it}
entities:
  - {name: schema, description: "The catalog of this API, id: contract_version"}
)yaml";

}  // namespace

plugins::Manifest CoreManifest() {
    return plugins::ParseManifest(kCoreManifest, "(built-in core manifest)");
}

}  // namespace lastro::catalog
