package dev.cairn.coordinator.metrics;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The metric names a PromQL expression reads: what is left once strings, matchers, groupings and functions go. */
final class PromQl {

    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "bool", "offset", "inf", "nan");
    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern GROUPING = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(\\s*\\()?");

    private PromQl() {}

    static Set<String> metricNames(String expression) {
        String bare = STRING.matcher(expression).replaceAll(" ");
        bare = MATCHERS.matcher(bare).replaceAll(" ");
        bare = RANGE.matcher(bare).replaceAll(" ");
        bare = GROUPING.matcher(bare).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher name = NAME.matcher(bare);
        while (name.find()) {
            boolean function = name.group(1) != null;
            String word = name.group().replace("(", "").strip();
            int start = name.start();
            boolean partOfNumber = start > 0 && Character.isDigit(bare.charAt(start - 1));
            if (!function && !partOfNumber && !KEYWORDS.contains(word.toLowerCase())) {
                names.add(word);
            }
        }
        return names;
    }
}
