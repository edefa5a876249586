package dev.cairn.coordinator.app;

import dev.cairn.coordinator.streams.CoordinatorStores;
import dev.cairn.events.topics.CairnTopics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a coordinator application that has never read its inputs starts reading them, when other coordinator
 * applications ran on the same topics before it (it was given a new application id over an existing journal).
 * Its stores are rebuilt from the journal; its inputs must start right after the last one that journal reflects.
 * Journals written since 0.2.0 say so themselves (each record names its input, and the processor skips inputs the
 * journal reflects); for a journal written before, this takes the input positions of the applications that wrote
 * it: the groups of the coordinator applications on this Kafka cluster (those with a {@code cairn-jobs} changelog)
 * that committed offsets on this coordinator's input topics, the highest per partition. It changes nothing for an
 * application that has committed input offsets already, or when there is no such group.
 */
final class InputTakeover {

    private static final Logger LOG = LoggerFactory.getLogger(InputTakeover.class);
    private static final String CHANGELOG_SUFFIX = "-" + CoordinatorStores.JOBS + "-changelog";

    private InputTakeover() {
    }

    /** Commits, for a new application, the input positions the previous applications on these topics left. */
    static void takeOver(Admin admin, String applicationId, CairnTopics topics) throws InterruptedException {
        Set<String> inputs = Set.of(topics.requests(), topics.acks());
        try {
            if (!inputOffsets(admin, applicationId, inputs).isEmpty()) {
                return;
            }
            Map<TopicPartition, OffsetAndMetadata> taken = new HashMap<>();
            List<String> previous = admin.listTopics().names().get().stream()
                    .filter(name -> name.endsWith(CHANGELOG_SUFFIX))
                    .map(name -> name.substring(0, name.length() - CHANGELOG_SUFFIX.length()))
                    .filter(group -> !group.equals(applicationId)).sorted().toList();
            for (String group : previous) {
                inputOffsets(admin, group, inputs).forEach((partition, offset) -> taken.merge(partition, offset,
                        (a, b) -> a.offset() >= b.offset() ? a : b));
            }
            if (taken.isEmpty()) {
                return;
            }
            admin.alterConsumerGroupOffsets(applicationId, taken).all().get();
            LOG.info("Application {} reads its inputs from where the coordinator applications {} left them: {}",
                    applicationId, previous, taken);
        } catch (ExecutionException e) {
            LOG.warn("Could not take over the input positions of earlier coordinator applications for {} ({}); "
                    + "inputs the journal reflects are still skipped by the offsets its records name",
                    applicationId, e.getCause().toString());
        }
    }

    private static Map<TopicPartition, OffsetAndMetadata> inputOffsets(Admin admin, String group, Set<String> inputs)
            throws InterruptedException, ExecutionException {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().forEach((partition, offset) -> {
            if (offset != null && inputs.contains(partition.topic())) {
                offsets.put(partition, offset);
            }
        });
        return offsets;
    }
}
