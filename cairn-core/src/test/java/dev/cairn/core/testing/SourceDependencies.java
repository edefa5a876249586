package dev.cairn.core.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The packages of this module's main sources below a base package, and for each the others it uses in code: by
 * import or by qualified name, comments left out. Packages are named relative to the base ({@code a.b} for
 * {@code <base>.a.b}); a package's use of its own classes is not counted. The {@code ArchitectureTest}s of the
 * coordinator, the sidecar and the worker kit read their module with it (from this module's test jar).
 */
public final class SourceDependencies {

    private static final Pattern KAFKA_USE = Pattern.compile("\\borg\\.apache\\.kafka\\.");

    private final Map<String, Set<String>> uses = new TreeMap<>();
    private final Set<String> usingKafka = new TreeSet<>();

    private SourceDependencies() {
    }

    /** Reads {@code src/main/java} below {@code basePackage}, the module's root package. */
    public static SourceDependencies read(String basePackage) {
        Path sources = Path.of("src/main/java", basePackage.split("\\."));
        Pattern use = Pattern.compile("\\b" + Pattern.quote(basePackage) + "\\.((?:[a-z]\\w*\\.)+)[A-Z*]");
        Map<String, String> code = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file -> code.merge(
                    sources.relativize(file.getParent()).toString().replace('/', '.'), codeOf(file), String::concat));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SourceDependencies found = new SourceDependencies();
        code.forEach((name, text) -> {
            Set<String> used = new TreeSet<>();
            Matcher other = use.matcher(text);
            while (other.find()) {
                String usedName = other.group(1).substring(0, other.group(1).length() - 1);
                if (!usedName.equals(name) && code.containsKey(usedName)) {
                    used.add(usedName);
                }
            }
            found.uses.put(name, used);
            if (KAFKA_USE.matcher(text).find()) {
                found.usingKafka.add(name);
            }
        });
        return found;
    }

    /** Every package, by name relative to the base package. */
    public Set<String> packages() {
        return uses.keySet();
    }

    /** The other packages {@code name} uses. */
    public Set<String> uses(String name) {
        return uses.get(name);
    }

    /** The packages that use {@code name}. */
    public Set<String> usersOf(String name) {
        return uses.keySet().stream().filter(user -> uses.get(user).contains(name)).collect(Collectors.toSet());
    }

    /** {@code prefix} and the packages below it. */
    public List<String> under(String prefix) {
        return uses.keySet().stream().filter(name -> name.equals(prefix) || name.startsWith(prefix + ".")).toList();
    }

    /** The packages whose code uses Kafka ({@code org.apache.kafka}). */
    public Set<String> usingKafka() {
        return usingKafka;
    }

    /** The packages {@code start} uses, directly or through others. */
    public Set<String> reachableFrom(String start) {
        Set<String> reached = new HashSet<>();
        List<String> next = new ArrayList<>(uses.get(start));
        while (!next.isEmpty()) {
            String name = next.remove(next.size() - 1);
            if (reached.add(name)) {
                next.addAll(uses.get(name));
            }
        }
        return reached;
    }

    /** The file's code: without comments and without its package line. */
    private static String codeOf(Path file) {
        try {
            return Files.readString(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("(?m)^\\s*//.*$", "")
                    .replaceFirst("(?m)^package [\\w.]+;", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
