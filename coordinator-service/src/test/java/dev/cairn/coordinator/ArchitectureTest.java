package dev.cairn.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.SourceDependencies;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the coordinator's structure true by reading its sources ({@link SourceDependencies}): each package below
 * {@code dev.cairn.coordinator} names the others it uses in code. The rules:
 * <ul>
 *   <li>main ({@code app}) wires everything, and nothing uses it;</li>
 *   <li>the Kafka Streams side ({@code streams}) and the web page ({@code web}) use no other package;</li>
 *   <li>the HTTP server ({@code http}) uses neither {@code streams} nor the metrics;</li>
 *   <li>the REST API ({@code rest} and below) uses none of {@code http}, {@code web}, {@code metrics}, {@code app},
 *       and only {@code rest.sources} uses {@code streams};</li>
 *   <li>{@code rest} uses none of its subpackages; {@code rest.access} and {@code rest.bodies} use only
 *       {@code rest} (the API's error) and no Kafka; {@code rest.sources} uses only {@code rest} and
 *       {@code streams};</li>
 *   <li>only {@code http} uses {@code rest.routes};</li>
 *   <li>the metrics read jobs through {@code rest.sources} and use nothing else of the API;</li>
 *   <li>no two packages use each other, however indirectly.</li>
 * </ul>
 */
class ArchitectureTest {

    private static final List<String> OUTSIDE_THE_API = List.of("http", "web", "metrics", "app");

    private static SourceDependencies sources;

    @BeforeAll
    static void readSources() {
        sources = SourceDependencies.read("dev.cairn.coordinator");
    }

    @Test
    void shouldFindEveryPackageWhenReadingTheSources() {
        assertThat(sources.packages()).contains("app", "http", "metrics", "rest", "rest.access", "rest.bodies",
                "rest.routes", "rest.sources", "streams", "web");
        assertThat(sources.uses("rest.routes")).as("the scan sees what routes use")
                .contains("rest", "rest.access", "rest.bodies", "rest.sources");
        assertThat(sources.usingKafka()).as("the scan sees Kafka").contains("streams");
    }

    @Test
    void shouldNotUseAppWhenOutsideIt() {
        assertThat(sources.usersOf("app")).isEmpty();
    }

    @Test
    void shouldNotUseRestWhenStreaming() {
        assertThat(sources.uses("streams")).as("packages streams uses").isEmpty();
    }

    @Test
    void shouldUseNothingOfTheCoordinatorWhenServingTheWebPage() {
        assertThat(sources.uses("web")).as("packages web uses").isEmpty();
    }

    @Test
    void shouldUseNeitherStreamsNorMetricsWhenServingHttp() {
        assertThat(sources.uses("http")).doesNotContain("streams", "metrics", "app");
    }

    @Test
    void shouldNotUseTheServerWhenAnsweringRequests() {
        sources.under("rest").forEach(name -> assertThat(sources.uses(name)).as("packages %s uses", name)
                .doesNotContainAnyElementsOf(OUTSIDE_THE_API));
    }

    @Test
    void shouldUseStreamsOnlyThroughSourcesWhenAnsweringRequests() {
        assertThat(sources.under("rest")).filteredOn(name -> sources.uses(name).contains("streams"))
                .as("REST packages that use streams").containsExactly("rest.sources");
    }

    @Test
    void shouldUseOnlyTheApiErrorWhenCheckingTokensOrReadingBodies() {
        assertThat(sources.uses("rest")).as("subpackages the API's error uses").isEmpty();
        assertThat(sources.uses("rest.access")).as("packages access uses").containsOnly("rest");
        assertThat(sources.uses("rest.bodies")).as("packages bodies uses").containsOnly("rest");
        assertThat(sources.usingKafka()).doesNotContain("rest", "rest.access", "rest.bodies");
    }

    @Test
    void shouldUseNoOtherPartOfTheApiWhenReadingStores() {
        assertThat(sources.uses("rest.sources")).as("packages sources uses").isSubsetOf("rest", "streams");
    }

    @Test
    void shouldUseRoutesOnlyWhenServingHttp() {
        assertThat(sources.usersOf("rest.routes")).containsOnly("http");
    }

    @Test
    void shouldReadJobsThroughSourcesWhenMeasuring() {
        assertThat(sources.uses("metrics")).as("packages metrics uses").isSubsetOf("streams", "rest.sources");
    }

    @Test
    void shouldHaveNoLoopWhenFollowingPackageUses() {
        for (String start : sources.packages()) {
            assertThat(sources.reachableFrom(start)).as("packages reachable from %s", start).doesNotContain(start);
        }
    }
}
