package dev.cairn.coordinator.app;

import dev.cairn.coordinator.streams.StoreLayout;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * The rule for coordinator instances of two releases in one application: instances share a stream task's stores
 * only when they write the same store layout ({@link StoreLayout#CURRENT}). Every instance names its layout in its
 * Kafka client id ({@code <application id>-layout<N>-<instance>}); an instance that finds members of its
 * application's group of another layout does not start processing until they have left, so the old release hands
 * over through a clean stop and the new one rebuilds the stores from the journal. Members whose client id names no
 * layout ran a release before 0.2.0, whose layout is 1.
 */
final class LayoutGuard {

    private static final Pattern TAG = Pattern.compile("-layout(\\d+)-");
    private static final long UNTAGGED_LAYOUT = 1;

    private LayoutGuard() {
    }

    /** The Kafka client id of an instance of this release: the application id, the layout, then {@code instance}. */
    static String clientId(String applicationId, String instance) {
        return applicationId + "-layout" + StoreLayout.CURRENT + "-" + instance;
    }

    /** The layout a member's client id names (1 when it names none). */
    static long layoutOf(String clientId) {
        Matcher matcher = TAG.matcher(clientId);
        long layout = UNTAGGED_LAYOUT;
        while (matcher.find()) {
            layout = Long.parseLong(matcher.group(1));
        }
        return layout;
    }

    /** The client ids of the members of {@code group} that write another layout than this release. */
    static List<String> otherLayouts(Admin admin, String group) throws InterruptedException {
        ConsumerGroupDescription description;
        try {
            KafkaFuture<Map<String, ConsumerGroupDescription>> described =
                    admin.describeConsumerGroups(List.of(group)).all();
            description = described.get().get(group);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return List.of();
            }
            throw new IllegalStateException("cannot describe the group of application " + group + ": "
                    + e.getCause(), e.getCause());
        }
        return description == null ? List.of() : description.members().stream().map(MemberDescription::clientId)
                .filter(id -> layoutOf(id) != StoreLayout.CURRENT).distinct().sorted().toList();
    }
}
