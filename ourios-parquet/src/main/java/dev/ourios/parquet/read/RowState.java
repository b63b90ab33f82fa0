package dev.ourios.parquet.read;

import dev.ourios.core.LogRecord;
import dev.ourios.core.Param;
import java.util.ArrayList;
import java.util.List;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The columns of the row being assembled. Converters write into it; {@link #build()} makes the record. Missing
 * OPTIONAL columns stay null; REQUIRED ones are always present (checked from the schema before any row is read).
 */
final class RowState {
    private static final SortedMap<String, Object> NO_EXTRAS = Collections.emptySortedMap();
    String tenantId;
    long templateId;
    int templateVersion;
    long timeUnixNano;
    Long observedTimeUnixNano;
    Long effectiveTimeUnixNano;
    int severityNumber;
    String severityText;
    String scopeName;
    String scopeVersion;
    String attributes;
    int droppedAttributesCount;
    String resourceAttributes;
    byte[] traceId;
    byte[] spanId;
    int flags;
    String eventName;
    int bodyKind;
    byte[] body;
    List<Param> params;
    int paramTypeTag;
    byte[] paramValue;
    List<byte[]> separators;
    float confidence;
    boolean lossyFlag;
    String scopeAttributes;
    String resourceSchemaUrl;
    String scopeSchemaUrl;
    String serviceName;
    SortedMap<String, Object> extras;

    void reset() {
        reset(true, true);
    }

    /**
     * Clears the row; the lists and the extras map are only allocated when the row reads them ({@code lists},
     * {@code extraColumns}): a prefilter's partial rows, one per candidate row of a scan, read neither.
     */
    void reset(boolean lists, boolean extraColumns) {
        tenantId = null;
        templateId = 0;
        templateVersion = 0;
        timeUnixNano = 0;
        severityNumber = 0;
        attributes = null;
        droppedAttributesCount = 0;
        resourceAttributes = null;
        flags = 0;
        bodyKind = 0;
        confidence = 0;
        lossyFlag = false;
        observedTimeUnixNano = null;
        effectiveTimeUnixNano = null;
        severityText = null;
        scopeName = null;
        scopeVersion = null;
        traceId = null;
        spanId = null;
        eventName = null;
        body = null;
        // Presized: most rows carry a few params and separators, and growing from 0 would copy the array per element.
        params = lists ? new ArrayList<>(4) : null;
        separators = lists ? new ArrayList<>(5) : null;
        scopeAttributes = null;
        resourceSchemaUrl = null;
        scopeSchemaUrl = null;
        serviceName = null;
        extras = extraColumns ? new TreeMap<>() : NO_EXTRAS;
    }

    LogRecord build() {
        return new LogRecord(tenantId, templateId, templateVersion, timeUnixNano, observedTimeUnixNano,
                effectiveTimeUnixNano, severityNumber, severityText, scopeName, scopeVersion, attributes,
                droppedAttributesCount, resourceAttributes, traceId, spanId, flags, eventName, bodyKind, body, params,
                separators, confidence, lossyFlag, scopeAttributes, resourceSchemaUrl, scopeSchemaUrl, serviceName,
                extras);
    }
}
