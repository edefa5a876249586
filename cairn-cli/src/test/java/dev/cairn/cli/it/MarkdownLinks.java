package dev.cairn.cli.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The links and headings of a Markdown text, as a code host renders it: links ({@code [text](target)}, images,
 * {@code <url>} autolinks, bare {@code http(s)://} addresses, reference definitions) outside fenced blocks and code
 * spans, and the anchors of its headings, slugged as GitHub does. In: the lines of a file; out: each link with its
 * line, and the set of anchors.
 */
final class MarkdownLinks {

    private static final Pattern INLINE = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*])*]\\(\\s*<?([^)\\s>]*)>?"
            + "(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern AUTOLINK = Pattern.compile("<((?:https?|mailto):[^>\\s]+)>");
    private static final Pattern BARE = Pattern.compile("(?<![(<\\w/])(https?://[^\\s)>\\]]+)");
    private static final Pattern DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]]+]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.+?)\\1");
    private static final Pattern MULTILINE_CODE_SPAN = Pattern.compile("(`+)(.+?)\\1", Pattern.DOTALL);
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```+|~~~+)");

    private MarkdownLinks() {
    }

    /** One link: the line it is on and its target as written. */
    record Link(int line, String target) {

        /** Whether it leaves the repository: a URL with a scheme. */
        boolean isExternal() {
            return target.matches("(?i)[a-z][a-z0-9+.-]*:.*");
        }
    }

    /** Every link of the text, outside fenced code blocks and code spans. */
    static List<Link> links(List<String> lines) {
        List<Link> links = new ArrayList<>();
        List<String> prose = prose(lines);
        for (int i = 0; i < prose.size(); i++) {
            String line = prose.get(i);
            Matcher definition = DEFINITION.matcher(line);
            if (definition.matches()) {
                links.add(new Link(i + 1, definition.group(1)));
                continue;
            }
            for (Pattern pattern : List.of(INLINE, AUTOLINK)) {
                Matcher m = pattern.matcher(line);
                while (m.find()) {
                    links.add(new Link(i + 1, m.group(1)));
                }
            }
            Matcher bare = BARE.matcher(INLINE.matcher(line).replaceAll(" ").replaceAll("<[^>]*>", " "));
            while (bare.find()) {
                links.add(new Link(i + 1, bare.group(1)));
            }
        }
        return links;
    }

    /** The anchors of the text's headings, as GitHub makes them: a repeated slug gets {@code -1}, {@code -2}... */
    static Set<String> anchors(List<String> lines) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (!fenced && heading.matches()) {
                String slug = slug(heading.group(2));
                int count = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(count == 0 ? slug : slug + "-" + count);
            }
        }
        return anchors;
    }

    /**
     * GitHub's anchor of a heading: its text as rendered (code spans, links and emphasis reduced to their text),
     * lower-cased, every character but letters, digits, spaces, hyphens and underscores dropped, each space a hyphen.
     */
    static String slug(String heading) {
        String text = CODE_SPAN.matcher(heading).replaceAll(m -> Matcher.quoteReplacement(m.group(2).strip()));
        text = text.replaceAll("!?\\[([^\\]]*)]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
        text = text.replaceAll("(\\*{1,3}|_{1,3})(\\S.*?\\S|\\S)\\1", "$2");
        StringBuilder slug = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    /**
     * The lines with fenced blocks blanked and code spans (which may run over several lines) turned into spaces, so
     * that only prose is searched for links and the line numbers stay.
     */
    private static List<String> prose(List<String> lines) {
        StringBuilder text = new StringBuilder();
        boolean fenced = false;
        for (String line : lines) {
            boolean fence = FENCE.matcher(line).find();
            fenced ^= fence;
            text.append(fence || fenced ? "" : line).append('\n');
        }
        String blanked = MULTILINE_CODE_SPAN.matcher(text).replaceAll(m -> m.group().replaceAll("[^\n]", " "));
        return List.of(blanked.split("\n", -1)).subList(0, lines.size());
    }
}
