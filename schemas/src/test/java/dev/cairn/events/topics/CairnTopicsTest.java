package dev.cairn.events.topics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CairnTopicsTest {

    @Test
    void shouldCreateTheCompactedSchemasTopicWithTheOthers() {
        CairnTopics topics = new CairnTopics("x.");

        assertThat(topics.schemas()).isEqualTo("x.schemas");
        assertThat(topics.all()).contains("x.schemas").hasSize(8).doesNotHaveDuplicates();
        assertThat(topics.withConfigs()).containsOnlyKeys(topics.all());
        assertThat(topics.withConfigs().get("x.schemas")).containsEntry("cleanup.policy", "compact");
    }

    @Test
    void shouldCreateTheSnapshotsTopicCompactedOnlyWithHourlySegmentsAndRoomForLargeChunks() {
        CairnTopics topics = new CairnTopics("x.");

        assertThat(topics.snapshots()).isEqualTo("x.snapshots");
        assertThat(topics.withConfigs().get("x.snapshots")).containsEntry("cleanup.policy", "compact")
                .containsEntry("segment.ms", "3600000").containsEntry("max.message.bytes", "8388608");
    }

    @Test
    void shouldFindTheTopicsOfOneTopicsName() {
        assertThat(CairnTopics.of("cairn.journal", CairnTopics::journal)).contains(CairnTopics.defaults());
        assertThat(CairnTopics.of("requests", CairnTopics::requests)).contains(new CairnTopics(""));
        assertThat(CairnTopics.of("team-a.requests", CairnTopics::requests).map(CairnTopics::schemas))
                .contains("team-a.schemas");
        assertThat(CairnTopics.of("cairn.journal", CairnTopics::requests)).isEmpty();
        assertThat(CairnTopics.of("bad prefix!journal", CairnTopics::journal)).isEmpty();
        assertThat(CairnTopics.of(null, CairnTopics::journal)).isEmpty();
    }
}
