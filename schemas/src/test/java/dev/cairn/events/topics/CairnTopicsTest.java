package dev.cairn.events.topics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CairnTopicsTest {

    @Test
    void shouldCreateTheCompactedSchemasTopicWithTheOthers() {
        CairnTopics topics = new CairnTopics("x.");

        assertThat(topics.schemas()).isEqualTo("x.schemas");
        assertThat(topics.all()).contains("x.schemas").hasSize(7).doesNotHaveDuplicates();
        assertThat(topics.withConfigs()).containsOnlyKeys(topics.all());
        assertThat(topics.withConfigs().get("x.schemas")).containsEntry("cleanup.policy", "compact");
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
