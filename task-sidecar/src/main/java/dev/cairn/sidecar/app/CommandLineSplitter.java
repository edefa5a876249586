package dev.cairn.sidecar.app;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a {@code hook.command} value into the program and its arguments: words separated by white space,
 * where single or double quotes keep white space inside a word and a backslash escapes the next character
 * (outside single quotes). No other shell syntax (variables, globs, pipes): to use a shell, run one, e.g.
 * {@code sh -c "..."}.
 */
final class CommandLineSplitter {

    private CommandLineSplitter() {
    }

    /**
     * The words of {@code line}; throws {@link IllegalArgumentException} on an unclosed quote or trailing backslash.
     */
    static List<String> split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote == '\'') {
                if (c == '\'') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\\') {
                if (i + 1 == line.length()) {
                    throw new IllegalArgumentException("it ends with a lone backslash");
                }
                word.append(line.charAt(++i));
                inWord = true;
            } else if (quote == '"') {
                if (c == '"') {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("a " + (quote == '"' ? "double" : "single") + " quote is not closed");
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
