package dev.ourios.query.search;

import java.util.Objects;

/**
 * What a term reads of a row (docs/spec/query.md, section 5). {@code key} is the attribute key of {@link
 * Kind#RESOURCE} and {@link Kind#ATTRIBUTES} fields and empty for the others.
 */
public record Field(Kind kind, String key) {

    public enum Kind {
        /** The log line: bare words, phrases and regexes, and {@code body:}. */
        LINE("body"),
        SERVICE("service"),
        SEVERITY("severity"),
        TRACE_ID("trace_id"),
        SPAN_ID("span_id"),
        TEMPLATE_ID("template_id"),
        SCOPE("scope"),
        RESOURCE("resource."),
        ATTRIBUTES("attributes.");

        private final String spelling;

        Kind(String spelling) {
            this.spelling = spelling;
        }

        /** The field's name in a query ({@code resource.} and {@code attributes.} take a key after it). */
        public String spelling() {
            return spelling;
        }
    }

    public static final Field LINE = new Field(Kind.LINE, "");

    public Field {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(key, "key");
        if ((kind == Kind.RESOURCE || kind == Kind.ATTRIBUTES) == key.isEmpty()) {
            throw new IllegalArgumentException(kind + " field with key '" + key + "'");
        }
    }

    /** The field as a query names it: {@code service}, {@code attributes.http.method}. */
    public String name() {
        return kind.spelling + key;
    }
}
