package dev.ourios.query.search;

import dev.ourios.parquet.index.TextTokens;
import java.util.List;

/**
 * The tokens of a text (docs/spec/query.md, section 4): maximal runs of letters, marks, decimal digits and the
 * underscore, each lower-cased by Unicode's default mapping. The same function splits a log line and the words of a
 * query, so matching is whole-token and case-insensitive on both sides alike; it is also the one the token index is
 * built with ({@link TextTokens}), so the index never rules out a row a word matches.
 */
public final class Tokenizer {
    private Tokenizer() {
    }

    /** The lower-cased tokens of {@code text}, in order. */
    public static List<String> tokens(String text) {
        return TextTokens.tokens(text);
    }

    /** True for a code point that is part of a token: a letter, a mark, a decimal digit or '_'. */
    public static boolean isTokenChar(int cp) {
        return TextTokens.isTokenChar(cp);
    }
}
