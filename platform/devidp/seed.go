package devidp

// Groups the seeded accounts belong to; config/dev.yaml maps them to roles.
const (
	AdminGroup     = "rounds-admins"
	ModeratorGroup = "rounds-moderators"
)

// SeedAccounts are the accounts `go tool task up` offers on the login page:
// one per role, password equal to the username.
func SeedAccounts() []Account {
	verified := true
	return []Account{
		{Username: "admin", Password: "admin", Claims: Claims{
			Email: "admin@rounds.test", EmailVerified: &verified, Name: "Ada Admin",
			PreferredUsername: "admin", Groups: []string{AdminGroup}}},
		{Username: "moderator", Password: "moderator", Claims: Claims{
			Email: "moderator@rounds.test", EmailVerified: &verified, Name: "Mo Moderator",
			PreferredUsername: "moderator", Groups: []string{ModeratorGroup}}},
		{Username: "learner", Password: "learner", Claims: Claims{
			Email: "learner@rounds.test", EmailVerified: &verified, Name: "Lee Learner",
			PreferredUsername: "learner", Groups: []string{}}},
	}
}
