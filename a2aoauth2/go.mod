module github.com/caoliao-a2a/a2a-go/a2aoauth2

go 1.26.0

require (
	github.com/caoliao-a2a/a2a-go v0.0.0
	go.uber.org/goleak v1.3.0
	golang.org/x/oauth2 v0.38.0
)

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
)

replace github.com/caoliao-a2a/a2a-go => ../
