package dev.ourios.query.search;

/**
 * The bounds a search query must stay within (docs/spec/query.md, section 7), so that a hostile query costs a bounded
 * amount of parsing, memory and matching time.
 *
 * @param maxLength       code points in the query
 * @param maxDepth        nesting of parentheses, NOT and '-'
 * @param maxTerms        terms (words, phrases, regexes, field values)
 * @param maxRegexLength  code points in one regex
 * @param maxRegexSize    instructions one regex may compile to (estimated before compiling, and checked after)
 * @param maxNumberLength characters in one number
 */
public record SearchLimits(int maxLength, int maxDepth, int maxTerms, int maxRegexLength, int maxRegexSize,
        int maxNumberLength) {

    /** The limits docs/spec/query.md states. */
    public static final SearchLimits DEFAULT = new SearchLimits(4096, 32, 128, 256, 10_000, 64);

    public SearchLimits {
        if (maxLength < 1 || maxDepth < 1 || maxTerms < 1 || maxRegexLength < 1 || maxRegexSize < 1
                || maxNumberLength < 1) {
            throw new IllegalArgumentException("every search limit must be at least 1: " + this);
        }
    }
}
