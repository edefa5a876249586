package dev.cairn.kit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.testing.SourceDependencies;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the worker kit's structure true by reading its sources ({@link SourceDependencies}): each package below
 * {@code dev.cairn.kit} names the others it uses in code. The rules:
 * <ul>
 *   <li>barrier alignment ({@code align}) uses no Kafka and no other package of the kit;</li>
 *   <li>snapshot storage ({@code storage}: local files, S3) uses no Kafka and no other package;</li>
 *   <li>state files and lineage ({@code state}) use only {@code storage};</li>
 *   <li>the wire format ({@code wire}) uses only {@code align} (a barrier's alignment);</li>
 *   <li>the sink ({@code sink}) uses only {@code state} and {@code storage};</li>
 *   <li>the source task ({@code task}) uses neither the operator task nor the sink;</li>
 *   <li>the operator task ({@code operator}) builds on all of them, and nothing uses it;</li>
 *   <li>no two packages use each other, however indirectly.</li>
 * </ul>
 */
class ArchitectureTest {

    private static SourceDependencies sources;

    @BeforeAll
    static void readSources() {
        sources = SourceDependencies.read("dev.cairn.kit");
    }

    @Test
    void shouldFindEveryPackageWhenReadingTheSources() {
        assertThat(sources.packages()).contains("align", "operator", "sink", "state", "storage", "task", "wire");
        assertThat(sources.uses("operator")).as("the scan sees what the operator task uses")
                .contains("align", "sink", "state", "storage", "task", "wire");
        assertThat(sources.usingKafka()).as("the scan sees Kafka").contains("task");
    }

    @Test
    void shouldUseNeitherKafkaNorOtherPackagesWhenAligning() {
        assertThat(sources.uses("align")).as("packages align uses").isEmpty();
        assertThat(sources.usingKafka()).doesNotContain("align");
    }

    @Test
    void shouldUseNeitherKafkaNorOtherPackagesWhenStoringSnapshots() {
        assertThat(sources.uses("storage")).as("packages storage uses").isEmpty();
        assertThat(sources.usingKafka()).doesNotContain("storage");
    }

    @Test
    void shouldUseOnlyStorageWhenKeepingState() {
        assertThat(sources.uses("state")).as("packages state uses").isSubsetOf("storage");
    }

    @Test
    void shouldUseOnlyAlignmentWhenWritingRecords() {
        assertThat(sources.uses("wire")).as("packages wire uses").isSubsetOf("align");
    }

    @Test
    void shouldUseOnlyStateFilesAndStorageWhenSinking() {
        assertThat(sources.uses("sink")).as("packages sink uses").isSubsetOf("state", "storage");
    }

    @Test
    void shouldUseNeitherOperatorNorSinkWhenReadingTheSource() {
        assertThat(sources.uses("task")).as("packages task uses").doesNotContain("operator", "sink");
    }

    @Test
    void shouldNotUseOperatorWhenOutsideIt() {
        assertThat(sources.usersOf("operator")).isEmpty();
    }

    @Test
    void shouldHaveNoLoopWhenFollowingPackageUses() {
        for (String start : sources.packages()) {
            assertThat(sources.reachableFrom(start)).as("packages reachable from %s", start).doesNotContain(start);
        }
    }
}
