package dev.cairn.cli.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shell commands of a document, as a reader would copy them: in a Markdown file only the {@code ```bash}
 * blocks, in a shell script every line. Lines ending in {@code \} are joined with the next, a trailing
 * {@code # comment} (outside quotes) is dropped, blank and comment lines are skipped. In: a file and the directory
 * its name is given relative to; out: each command with its file and the line it starts on.
 */
final class ReadmeCommands {

    private ReadmeCommands() {
    }

    /** One command, the file it is in (relative to the repository) and the line of that file where it starts. */
    record Command(Path page, int line, String text) {

        /** Whether the command starts with {@code prefix}. */
        boolean startsWith(String prefix) {
            return text.startsWith(prefix);
        }

        /** The command's words without its {@code -Dkey=value} arguments, which tune a run but not what runs. */
        List<String> withoutDefines() {
            return words(text).stream().filter(w -> !w.startsWith("-D")).toList();
        }

        @Override
        public String toString() {
            return page + " line " + line + ": " + text;
        }
    }

    /** The commands of every {@code ```bash} block of a Markdown file below {@code root}; other blocks are not. */
    static List<Command> ofMarkdown(Path root, Path markdown) {
        List<String> lines = read(root.resolve(markdown));
        List<String> shell = new ArrayList<>();
        boolean inBash = false;
        for (String line : lines) {
            if (line.startsWith("```")) {
                inBash = !inBash && line.strip().equals("```bash");
                shell.add("");
            } else {
                shell.add(inBash ? line : "");
            }
        }
        return commands(markdown, shell);
    }

    /** The commands of a shell script below {@code root}. */
    static List<Command> ofScript(Path root, Path script) {
        return commands(script, read(root.resolve(script)));
    }

    private static List<Command> commands(Path page, List<String> lines) {
        List<Command> commands = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int start = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = withoutComment(lines.get(i)).strip();
            if (current.isEmpty()) {
                start = i + 1;
            }
            boolean continued = line.endsWith("\\");
            current.append(continued ? line.substring(0, line.length() - 1).strip() : line);
            if (continued) {
                current.append(' ');
            } else if (!current.toString().isBlank()) {
                commands.add(new Command(page, start, current.toString().strip()));
                current.setLength(0);
            } else {
                current.setLength(0);
            }
        }
        return commands;
    }

    /** The line without a {@code #} comment that starts the line or follows a blank outside quotes. */
    static String withoutComment(String line) {
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    /** The command's words as the shell splits them (quotes group and are kept; no expansion). */
    static List<String> words(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        char quote = 0;
        for (char c : command.toCharArray()) {
            if (quote == 0 && Character.isWhitespace(c)) {
                if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
                continue;
            }
            if (quote != 0 && c == quote) {
                quote = 0;
            } else if (quote == 0 && (c == '\'' || c == '"')) {
                quote = c;
            }
            word.append(c);
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        return words;
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
        }
    }
}
