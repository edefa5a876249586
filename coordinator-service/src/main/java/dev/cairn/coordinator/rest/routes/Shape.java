package dev.cairn.coordinator.rest.routes;

import java.util.List;

/**
 * What a {@link Route} takes and answers, as its OpenAPI description ({@link OpenApiDocument}) shows it.
 *
 * @param body the class its JSON body is bound to (Cairn's and Flink's request names), {@code null}: none
 * @param status the status of a successful answer (200 for a read, 202 for a change)
 * @param answer the class of a successful JSON answer (snake_case), {@code null} for an empty object
 * @param mediaType the answer's media type
 * @param query the query parameters it takes, each with the values it takes ({@code name=a|b})
 */
record Shape(Class<?> body, int status, Class<?> answer, String mediaType, List<String> query) {

    static final String JSON = "application/json";

    /** A read answered 200 with {@code answer}. */
    static Shape read(Class<?> answer) {
        return new Shape(null, 200, answer, JSON, List.of());
    }

    /** A change taking {@code body}, answered 202 with {@code answer}. */
    static Shape change(Class<?> body, Class<?> answer) {
        return new Shape(body, 202, answer, JSON, List.of());
    }

    /** A page or a text answered 200 in {@code mediaType}. */
    static Shape text(String mediaType) {
        return new Shape(null, 200, null, mediaType, List.of());
    }

    /** The same, taking the query parameter {@code name} with one of {@code values}. */
    Shape withQuery(String name, String... values) {
        return new Shape(body, status, answer, mediaType, List.of(name + "=" + String.join("|", values)));
    }
}
