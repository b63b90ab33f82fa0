package dev.ourios.parquet.read;

import dev.ourios.core.Columns;
import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import dev.ourios.parquet.LogSchema;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Assembles {@link LogRecord}s straight from parquet-java's converter callbacks (no Group objects). Converters are
 * chosen by column name from the requested schema, which {@link LogFileReader} has already checked against
 * {@link LogSchema}: known columns go to their record fields, unknown top-level primitives to the extras.
 */
final class LogRecordMaterializer extends RecordMaterializer<LogRecord> {
    private final RowState row = new RowState();
    private final Root root;

    LogRecordMaterializer(MessageType requested) {
        this.root = new Root(requested);
    }

    @Override
    public LogRecord getCurrentRecord() {
        return row.build();
    }

    @Override
    public GroupConverter getRootConverter() {
        return root;
    }

    private final class Root extends GroupConverter {
        private final Converter[] converters;

        Root(MessageType schema) {
            converters = new Converter[schema.getFieldCount()];
            for (int i = 0; i < converters.length; i++) {
                converters[i] = converterFor(schema.getType(i));
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return converters[fieldIndex];
        }

        @Override
        public void start() {
            row.reset();
        }

        @Override
        public void end() {
        }
    }

    private Converter converterFor(Type field) {
        String name = field.getName();
        return switch (name) {
            case Columns.TENANT_ID -> new StringConverter(v -> row.tenantId = v);
            case Columns.TEMPLATE_ID -> new LongConverter(v -> row.templateId = v);
            case Columns.TEMPLATE_VERSION -> new IntConverter(v -> row.templateVersion = v);
            case Columns.TIME -> new LongConverter(v -> row.timeUnixNano = v);
            case Columns.OBSERVED_TIME -> new LongConverter(v -> row.observedTimeUnixNano = v);
            case Columns.EFFECTIVE_TIME -> new LongConverter(v -> row.effectiveTimeUnixNano = v);
            case Columns.SEVERITY_NUMBER -> new IntConverter(v -> row.severityNumber = v);
            case Columns.SEVERITY_TEXT -> new StringConverter(v -> row.severityText = v);
            case Columns.SCOPE_NAME -> new StringConverter(v -> row.scopeName = v);
            case Columns.SCOPE_VERSION -> new StringConverter(v -> row.scopeVersion = v);
            case Columns.ATTRIBUTES -> new StringConverter(v -> row.attributes = v);
            case Columns.DROPPED_ATTRIBUTES_COUNT -> new IntConverter(v -> row.droppedAttributesCount = v);
            case Columns.RESOURCE_ATTRIBUTES -> new StringConverter(v -> row.resourceAttributes = v);
            case Columns.TRACE_ID -> new BytesConverter(v -> row.traceId = v);
            case Columns.SPAN_ID -> new BytesConverter(v -> row.spanId = v);
            case Columns.FLAGS -> new IntConverter(v -> row.flags = v);
            case Columns.EVENT_NAME -> new StringConverter(v -> row.eventName = v);
            case Columns.BODY_KIND -> new IntConverter(v -> row.bodyKind = v);
            case Columns.BODY -> new BytesConverter(v -> row.body = v);
            case Columns.PARAMS -> new ListConverter(field.asGroupType(), paramElement(field.asGroupType()));
            case Columns.SEPARATORS -> new ListConverter(field.asGroupType(),
                    new BytesConverter(v -> row.separators.add(v)));
            case Columns.CONFIDENCE -> new PrimitiveConverter() {
                @Override
                public void addFloat(float value) {
                    row.confidence = value;
                }
            };
            case Columns.LOSSY_FLAG -> new PrimitiveConverter() {
                @Override
                public void addBoolean(boolean value) {
                    row.lossyFlag = value;
                }
            };
            case Columns.SCOPE_ATTRIBUTES -> new StringConverter(v -> row.scopeAttributes = v);
            case Columns.RESOURCE_SCHEMA_URL -> new StringConverter(v -> row.resourceSchemaUrl = v);
            case Columns.SCOPE_SCHEMA_URL -> new StringConverter(v -> row.scopeSchemaUrl = v);
            case Columns.SERVICE_NAME -> new StringConverter(v -> row.serviceName = v);
            default -> extraConverter(field.asPrimitiveType());
        };
    }

    private Converter extraConverter(PrimitiveType t) {
        String name = t.getName();
        BiConsumer<String, Object> put = (k, v) -> row.extras.put(k, v);
        return switch (t.getPrimitiveTypeName()) {
            case BINARY, FIXED_LEN_BYTE_ARRAY -> LogSchema.isStringColumn(t)
                    ? new StringConverter(v -> put.accept(name, v))
                    : new BytesConverter(v -> put.accept(name, v));
            case INT64 -> new LongConverter(v -> put.accept(name, v));
            case INT32 -> new IntConverter(v -> put.accept(name, v));
            case DOUBLE -> new PrimitiveConverter() {
                @Override
                public void addDouble(double value) {
                    put.accept(name, value);
                }
            };
            case FLOAT -> new PrimitiveConverter() {
                @Override
                public void addFloat(float value) {
                    put.accept(name, value);
                }
            };
            case BOOLEAN -> new PrimitiveConverter() {
                @Override
                public void addBoolean(boolean value) {
                    put.accept(name, value);
                }
            };
            default -> throw new IllegalStateException("unsupported extra column " + t);
        };
    }

    /** The element struct of params: fields addressed by name, whatever their order in the file. */
    private GroupConverter paramElement(GroupType params) {
        GroupType element = params.getType(0).asGroupType().getType(0).asGroupType();
        Converter[] fields = new Converter[element.getFieldCount()];
        for (int i = 0; i < fields.length; i++) {
            String n = element.getFieldName(i);
            fields[i] = switch (n) {
                case "type_tag" -> new IntConverter(v -> row.paramTypeTag = v);
                case "value" -> new BytesConverter(v -> row.paramValue = v);
                default -> new PrimitiveConverter() {
                    // A field a newer writer added to the element struct: not modelled by Param, ignored.
                };
            };
        }
        return new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
                return fields[fieldIndex];
            }

            @Override
            public void start() {
                row.paramTypeTag = 0;
                row.paramValue = null;
            }

            @Override
            public void end() {
                row.params.add(new Param(row.paramTypeTag, row.paramValue));
            }
        };
    }

    /** Standard 3-level LIST: outer group → repeated group → the element converter. */
    private static final class ListConverter extends GroupConverter {
        private final GroupConverter repeated;

        ListConverter(GroupType list, Converter element) {
            repeated = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return element;
                }

                @Override
                public void start() {
                }

                @Override
                public void end() {
                }
            };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
        }

        @Override
        public void end() {
        }
    }

    /** Decodes each dictionary entry once: string columns are mostly dictionary-encoded. */
    private static final class StringConverter extends PrimitiveConverter {
        private final Consumer<String> sink;
        private String[] dictionary;

        StringConverter(Consumer<String> sink) {
            this.sink = sink;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary d) {
            dictionary = new String[d.getMaxId() + 1];
            for (int i = 0; i < dictionary.length; i++) {
                dictionary[i] = d.decodeToBinary(i).toStringUsingUTF8();
            }
        }

        @Override
        public void addValueFromDictionary(int id) {
            sink.accept(dictionary[id]);
        }

        @Override
        public void addBinary(Binary value) {
            sink.accept(value.toStringUsingUTF8());
        }
    }

    private static final class BytesConverter extends PrimitiveConverter {
        private final Consumer<byte[]> sink;

        BytesConverter(Consumer<byte[]> sink) {
            this.sink = sink;
        }

        @Override
        public void addBinary(Binary value) {
            // getBytes copies unless the Binary wraps exactly its own array: page buffers are reused.
            sink.accept(value.getBytes());
        }
    }

    private static final class LongConverter extends PrimitiveConverter {
        private final LongConsumer sink;

        LongConverter(LongConsumer sink) {
            this.sink = sink;
        }

        @Override
        public void addLong(long value) {
            sink.accept(value);
        }
    }

    private static final class IntConverter extends PrimitiveConverter {
        private final IntConsumer sink;

        IntConverter(IntConsumer sink) {
            this.sink = sink;
        }

        @Override
        public void addInt(int value) {
            sink.accept(value);
        }
    }

}
