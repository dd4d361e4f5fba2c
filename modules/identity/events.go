package identity

import "github.com/roundsedu/rounds/platform/events"

// TopicUserDeleted is published when an administrator deletes an account;
// modules remove the data the user owned (attempts, favourites, notes...).
var TopicUserDeleted = events.NewTopic[UserDeleted]("identity.user_deleted.v1")

// UserDeleted is its payload.
type UserDeleted struct {
	UserID int64 `json:"user_id"`
}
