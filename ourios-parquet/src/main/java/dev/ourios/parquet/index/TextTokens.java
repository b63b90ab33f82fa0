package dev.ourios.parquet.index;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tokens of a text (docs/spec/query.md, section 4): maximal runs of letters, marks, decimal digits and the
 * underscore, each lower-cased by Unicode's default mapping. The one definition both the token index (which tokens a
 * row group's filter holds) and the search language (which tokens a word matches) use: were they to differ, the
 * index could rule out a row group that holds a match.
 */
public final class TextTokens {
    private TextTokens() {
    }

    /** The lower-cased tokens of {@code text}, in order. */
    public static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (isTokenChar(cp)) {
                if (start < 0) {
                    start = i;
                }
            } else if (start >= 0) {
                out.add(fold(text.substring(start, i)));
                start = -1;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) {
            out.add(fold(text.substring(start)));
        }
        return out;
    }

    /** True for a code point that is part of a token: a letter, a mark, a decimal digit or '_'. */
    public static boolean isTokenChar(int cp) {
        if (cp == '_') {
            return true;
        }
        switch (Character.getType(cp)) {
            case Character.UPPERCASE_LETTER, Character.LOWERCASE_LETTER, Character.TITLECASE_LETTER,
                    Character.MODIFIER_LETTER, Character.OTHER_LETTER, Character.NON_SPACING_MARK,
                    Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK, Character.DECIMAL_DIGIT_NUMBER:
                return true;
            default:
                return false;
        }
    }

    private static String fold(String token) {
        return token.toLowerCase(Locale.ROOT);
    }
}
