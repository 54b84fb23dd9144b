// The report schema, embedded so that the library needs no resource bundle.
// Keep it identical to docs/report.schema.json: ReportSchemaTests compares the two byte for byte.
// To update it, paste the file between the raw-string delimiters below.

/// docs/report.schema.json (JSON Schema 2020-12), the contract for schema versions 1 to 3.
public enum ReportSchema {
    /// The schema's JSON text, exactly as in docs/report.schema.json.
    public static let json: String = #"""
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://swift-crash-reporter.invalid/report.schema.json",
          "title": "swift-crash-reporter report, schema versions 1 to 3",
          "type": "object",
          "required": [
            "schema_version",
            "report_id",
            "timestamp",
            "timestamp_ms",
            "uptime_ms",
            "app",
            "os",
            "crash",
            "images",
            "breadcrumbs"
          ],
          "additionalProperties": false,
          "properties": {
            "schema_version": {
              "type": "integer",
              "enum": [
                1,
                2,
                3
              ]
            },
            "kind": {
              "type": "string",
              "enum": [
                "crash",
                "snapshot",
                "hang",
                "abnormal_exit"
              ]
            },
            "report_id": {
              "type": "string",
              "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"
            },
            "timestamp": {
              "type": "string",
              "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"
            },
            "timestamp_ms": {
              "type": "integer",
              "minimum": 0
            },
            "uptime_ms": {
              "type": "integer",
              "minimum": 0
            },
            "app": {
              "type": "object",
              "required": [
                "name",
                "version",
                "build",
                "environment"
              ],
              "additionalProperties": false,
              "properties": {
                "name": {
                  "type": "string",
                  "maxLength": 127
                },
                "version": {
                  "type": "string",
                  "maxLength": 127
                },
                "build": {
                  "type": "string",
                  "maxLength": 127
                },
                "environment": {
                  "type": "string",
                  "maxLength": 127
                }
              }
            },
            "os": {
              "type": "object",
              "required": [
                "name",
                "release",
                "machine",
                "distribution"
              ],
              "additionalProperties": false,
              "properties": {
                "name": {
                  "type": "string",
                  "maxLength": 64
                },
                "release": {
                  "type": "string",
                  "maxLength": 64
                },
                "machine": {
                  "type": "string",
                  "maxLength": 64
                },
                "distribution": {
                  "type": "string",
                  "maxLength": 127
                }
              }
            },
            "crash": {
              "type": [
                "object",
                "null"
              ],
              "required": [
                "signal",
                "message",
                "thread",
                "registers",
                "frames",
                "frames_truncated",
                "unwind_error"
              ],
              "additionalProperties": false,
              "properties": {
                "signal": {
                  "type": "object",
                  "required": [
                    "number",
                    "name",
                    "code",
                    "code_name",
                    "address"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "number": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 64
                    },
                    "name": {
                      "type": "string",
                      "pattern": "^SIG[A-Z0-9]+$"
                    },
                    "code": {
                      "type": "integer"
                    },
                    "code_name": {
                      "type": "string",
                      "minLength": 1
                    },
                    "address": {
                      "$ref": "#/$defs/address"
                    }
                  }
                },
                "message": {
                  "type": [
                    "string",
                    "null"
                  ],
                  "maxLength": 4095
                },
                "thread": {
                  "type": "object",
                  "required": [
                    "id",
                    "name",
                    "main"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "id": {
                      "type": "integer",
                      "minimum": 1
                    },
                    "name": {
                      "type": "string",
                      "maxLength": 15
                    },
                    "main": {
                      "type": "boolean"
                    }
                  }
                },
                "registers": {
                  "type": "object",
                  "minProperties": 1,
                  "additionalProperties": {
                    "$ref": "#/$defs/address"
                  }
                },
                "frames": {
                  "type": "array",
                  "minItems": 0,
                  "maxItems": 256,
                  "items": {
                    "$ref": "#/$defs/frame"
                  }
                },
                "frames_truncated": {
                  "type": "boolean"
                },
                "unwind_error": {
                  "type": [
                    "string",
                    "null"
                  ]
                },
                "frames_omitted": {
                  "type": "integer",
                  "minimum": 0
                },
                "frames_omitted_at": {
                  "type": "integer",
                  "minimum": 0
                }
              }
            },
            "snapshot": {
              "type": [
                "object",
                "null"
              ],
              "required": [
                "reason",
                "heartbeat"
              ],
              "additionalProperties": false,
              "properties": {
                "reason": {
                  "type": "string",
                  "maxLength": 255
                },
                "heartbeat": {
                  "type": [
                    "object",
                    "null"
                  ],
                  "required": [
                    "name",
                    "thread_id",
                    "late_ms"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "name": {
                      "type": "string",
                      "maxLength": 63
                    },
                    "thread_id": {
                      "type": "integer",
                      "minimum": 1
                    },
                    "late_ms": {
                      "type": "integer",
                      "minimum": 0
                    }
                  }
                }
              }
            },
            "abnormal_exit": {
              "type": [
                "object",
                "null"
              ],
              "required": [
                "class",
                "run_started_ms"
              ],
              "additionalProperties": false,
              "properties": {
                "class": {
                  "type": "string",
                  "enum": [
                    "oom_kill",
                    "machine_restart",
                    "killed"
                  ]
                },
                "run_started_ms": {
                  "type": "integer",
                  "minimum": 0
                }
              }
            },
            "threads": {
              "type": "array",
              "items": {
                "$ref": "#/$defs/thread"
              }
            },
            "threads_total": {
              "type": "integer",
              "minimum": 0
            },
            "threads_omitted": {
              "type": "integer",
              "minimum": 0
            },
            "images": {
              "type": "array",
              "maxItems": 512,
              "items": {
                "$ref": "#/$defs/image"
              }
            },
            "breadcrumbs": {
              "type": "object",
              "required": [
                "capacity",
                "torn",
                "items"
              ],
              "additionalProperties": false,
              "properties": {
                "capacity": {
                  "type": "integer",
                  "minimum": 0
                },
                "torn": {
                  "type": "integer",
                  "minimum": 0
                },
                "items": {
                  "type": "array",
                  "items": {
                    "$ref": "#/$defs/breadcrumb"
                  }
                }
              }
            }
          },
          "$defs": {
            "address": {
              "type": "string",
              "pattern": "^0x[0-9a-f]{1,16}$"
            },
            "frame": {
              "type": "object",
              "required": [
                "ip",
                "sp",
                "trust",
                "image"
              ],
              "additionalProperties": false,
              "properties": {
                "ip": {
                  "$ref": "#/$defs/address"
                },
                "sp": {
                  "$ref": "#/$defs/address"
                },
                "trust": {
                  "type": "string",
                  "enum": [
                    "context",
                    "cfi"
                  ]
                },
                "image": {
                  "type": "integer",
                  "minimum": -1
                }
              }
            },
            "async_frame": {
              "type": "object",
              "required": [
                "ip",
                "sp",
                "trust",
                "image"
              ],
              "additionalProperties": false,
              "properties": {
                "ip": {
                  "$ref": "#/$defs/address"
                },
                "sp": {
                  "$ref": "#/$defs/address"
                },
                "trust": {
                  "type": "string",
                  "enum": [
                    "async"
                  ]
                },
                "image": {
                  "type": "integer",
                  "minimum": -1
                }
              }
            },
            "image": {
              "type": "object",
              "required": [
                "name",
                "path",
                "base",
                "size",
                "build_id",
                "main"
              ],
              "additionalProperties": false,
              "properties": {
                "name": {
                  "type": "string",
                  "maxLength": 255
                },
                "path": {
                  "type": "string",
                  "maxLength": 1023
                },
                "base": {
                  "$ref": "#/$defs/address"
                },
                "size": {
                  "type": "integer",
                  "minimum": 0
                },
                "build_id": {
                  "type": "string",
                  "pattern": "^([0-9a-f]{2}){0,64}$"
                },
                "main": {
                  "type": "boolean"
                }
              }
            },
            "breadcrumb": {
              "type": "object",
              "required": [
                "timestamp_ms",
                "level",
                "category",
                "message",
                "data"
              ],
              "additionalProperties": false,
              "properties": {
                "timestamp_ms": {
                  "type": "integer",
                  "minimum": 0
                },
                "level": {
                  "type": "string",
                  "enum": [
                    "debug",
                    "info",
                    "warning",
                    "error",
                    "fatal"
                  ]
                },
                "category": {
                  "type": "string",
                  "maxLength": 31
                },
                "message": {
                  "type": "string",
                  "maxLength": 127
                },
                "data": {
                  "type": "object",
                  "maxProperties": 4,
                  "additionalProperties": {
                    "type": "string",
                    "maxLength": 95
                  },
                  "propertyNames": {
                    "type": "string",
                    "maxLength": 31
                  }
                }
              }
            },
            "thread": {
              "type": "object",
              "required": [
                "id",
                "name",
                "crashed",
                "main",
                "registers",
                "frames",
                "frames_truncated",
                "frames_omitted",
                "frames_omitted_at",
                "unwind_error"
              ],
              "additionalProperties": false,
              "properties": {
                "id": {
                  "type": "integer",
                  "minimum": 1
                },
                "name": {
                  "type": "string",
                  "maxLength": 15
                },
                "crashed": {
                  "type": "boolean"
                },
                "main": {
                  "type": "boolean"
                },
                "registers": {
                  "type": [
                    "object",
                    "null"
                  ],
                  "minProperties": 1,
                  "additionalProperties": {
                    "$ref": "#/$defs/address"
                  }
                },
                "frames": {
                  "type": "array",
                  "minItems": 0,
                  "maxItems": 256,
                  "items": {
                    "$ref": "#/$defs/frame"
                  }
                },
                "frames_truncated": {
                  "type": "boolean"
                },
                "frames_omitted": {
                  "type": "integer",
                  "minimum": 0
                },
                "frames_omitted_at": {
                  "type": "integer",
                  "minimum": 0
                },
                "unwind_error": {
                  "type": [
                    "string",
                    "null"
                  ],
                  "pattern": "^[a-z_]{1,31}$"
                },
                "async_frames": {
                  "type": "array",
                  "maxItems": 64,
                  "items": {
                    "$ref": "#/$defs/async_frame"
                  }
                },
                "async_frames_at": {
                  "type": "integer",
                  "minimum": 0
                },
                "async_frames_omitted": {
                  "type": "integer",
                  "minimum": 0
                },
                "task": {
                  "type": [
                    "object",
                    "null"
                  ],
                  "required": [
                    "id",
                    "name",
                    "priority"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "id": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "name": {
                      "type": [
                        "string",
                        "null"
                      ],
                      "maxLength": 63
                    },
                    "priority": {
                      "type": [
                        "integer",
                        "null"
                      ],
                      "minimum": 0,
                      "maximum": 255
                    }
                  }
                }
              }
            }
          }
        }

        """#

    /// The parsed schema. Parsing the embedded text cannot fail (a test proves it), so a
    /// failure here is a programming error.
    public static let schema: JSONSchema = {
        do {
            return try JSONSchema(json: json.utf8)
        } catch {
            fatalError("the embedded report schema does not parse: \(error)")
        }
    }()
}
