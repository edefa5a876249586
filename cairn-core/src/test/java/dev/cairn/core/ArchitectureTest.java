package dev.cairn.core;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the core's structure true by reading its sources: each subpackage of {@code dev.cairn.core} names the
 * others it uses (by import or by qualified name). The packages are a map, and these are its rules: the events (and
 * what is read from their fields) use nothing else in the core; the input contract ({@code contract}: spec and
 * request rules, limits, settings) and the state with its questions ({@code state}) use nothing in the core but the
 * events; nothing outside {@code decide} uses {@code decide}; nothing uses {@code views} or {@code audit} but the
 * shells; only views build the REST API's views (with Jackson's annotations, not its databind); nothing in the core
 * uses Kafka; and no two subpackages use each other, however indirectly.
 */
class ArchitectureTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/cairn/core");
    private static final Pattern CORE_USE = Pattern.compile("\\bdev\\.cairn\\.core\\.(\\w+)\\.");
    private static final Pattern KAFKA_USE = Pattern.compile("\\borg\\.apache\\.kafka\\.");
    private static final Pattern DATABIND_USE = Pattern.compile("\\bcom\\.fasterxml\\.jackson\\.databind\\.");

    /** Each subpackage's source files, by subpackage name. */
    private static Map<String, List<Path>> packages;
    /** The other subpackages each subpackage uses. */
    private static Map<String, Set<String>> uses;

    @BeforeAll
    static void readSources() throws IOException {
        packages = new TreeMap<>();
        uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file -> {
                String name = SOURCES.relativize(file.getParent()).toString().replace('/', '.');
                packages.computeIfAbsent(name, n -> new ArrayList<>()).add(file);
                Matcher used = CORE_USE.matcher(withoutPackageLine(file));
                Set<String> others = uses.computeIfAbsent(name, n -> new TreeSet<>());
                while (used.find()) {
                    if (!used.group(1).equals(name)) {
                        others.add(used.group(1));
                    }
                }
            });
        }
    }

    @Test
    void shouldFindEverySubpackageWhenReadingTheSources() {
        assertThat(packages).containsOnlyKeys("events", "contract", "state", "evolve", "decide", "audit", "views");
        assertThat(uses.get("decide")).as("the scan sees what decide uses").contains("evolve", "contract", "events");
    }

    @Test
    void shouldUseNothingElseInTheCoreWhenStatingEvents() {
        assertThat(uses.get("events")).isEmpty();
    }

    @Test
    void shouldUseOnlyTheEventsWhenStatingTheContractOrTheState() {
        assertThat(uses.get("contract")).as("contract uses").isSubsetOf("events");
        assertThat(uses.get("state")).as("state uses").isSubsetOf("events");
    }

    @Test
    void shouldUseDecideOnlyWhenDeciding() {
        uses.forEach((name, used) -> assertThat(used).as("subpackage %s uses", name).doesNotContain("decide"));
    }

    @Test
    void shouldUseAuditOnlyFromTheShells() {
        uses.forEach((name, used) -> assertThat(used).as("subpackage %s uses", name).doesNotContain("audit"));
    }

    @Test
    void shouldUseViewsOnlyWhenBuildingViews() {
        uses.forEach((name, used) -> assertThat(used).as("subpackages %s uses", name).doesNotContain("views"));
    }

    @Test
    void shouldUseOnlyJacksonsAnnotationsWhenBuildingViews() {
        List<Path> usingDatabind = packages.get("views").stream()
                .filter(file -> DATABIND_USE.matcher(read(file)).find()).toList();
        assertThat(usingDatabind).as("views that use jackson-databind").isEmpty();
    }

    @Test
    void shouldNotImportKafkaWhenInTheCore() {
        List<Path> usingKafka = packages.values().stream().flatMap(List::stream)
                .filter(file -> KAFKA_USE.matcher(read(file)).find()).toList();
        assertThat(usingKafka).as("core classes that use org.apache.kafka").isEmpty();
    }

    @Test
    void shouldHaveNoLoopWhenFollowingSubpackageUses() {
        for (String start : uses.keySet()) {
            assertThat(reachableFrom(start)).as("subpackages reachable from %s", start).doesNotContain(start);
        }
    }

    private static Set<String> reachableFrom(String start) {
        Set<String> reached = new HashSet<>();
        List<String> next = new ArrayList<>(uses.getOrDefault(start, Set.of()));
        while (!next.isEmpty()) {
            String name = next.remove(next.size() - 1);
            if (reached.add(name)) {
                next.addAll(uses.getOrDefault(name, Set.of()));
            }
        }
        return reached;
    }

    private static String withoutPackageLine(Path file) {
        return read(file).replaceFirst("(?m)^package [\\w.]+;", "");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
