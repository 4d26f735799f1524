package cardsig

// The A2A v1.0 agent card schema, as far as canonicalisation needs it
// (specification/a2a.proto at v1.0.1): for each message, its members'
// JSON names, their presence (REQUIRED, proto3 optional, or plain) and
// type.

// presence is how a member's default value is treated.
type presence int

const (
	plain    presence = iota // dropped at its default
	required                 // REQUIRED: kept even empty
	optional                 // proto3 optional: kept iff present
)

// kind is a member's type.
type kind int

const (
	scalar    kind = iota // string, bool or number
	message               // a message: fields names it
	list                  // repeated scalar
	messages              // repeated message
	mapOf                 // map<string, message>
	scalarMap             // map<string, string>
	structure             // google.protobuf.Struct: taken as it is
)

// field is one member of a message.
type field struct {
	presence presence
	kind     kind
	msg      string // the message of message, messages and mapOf
	alias    string // the proto field name (snake_case) a2a-js also reads
}

// oneofs lists, for a message whose members are one oneof, the order in
// which a2a-js's ts-proto decoder takes the first present one.
var oneofs = map[string][]string{
	"SecurityScheme": {"apiKeySecurityScheme", "httpAuthSecurityScheme", "oauth2SecurityScheme", "openIdConnectSecurityScheme", "mtlsSecurityScheme"},
	"OAuthFlows":     {"authorizationCode", "clientCredentials", "implicit", "password", "deviceCode"},
}

var schema = map[string]map[string]field{
	"AgentCard": {
		"name":                 {presence: required},
		"description":          {presence: required},
		"supportedInterfaces":  {presence: required, kind: messages, msg: "AgentInterface", alias: "supported_interfaces"},
		"provider":             {kind: message, msg: "AgentProvider"},
		"version":              {presence: required},
		"documentationUrl":     {presence: optional, alias: "documentation_url"},
		"capabilities":         {presence: required, kind: message, msg: "AgentCapabilities"},
		"securitySchemes":      {kind: mapOf, msg: "SecurityScheme", alias: "security_schemes"},
		"securityRequirements": {kind: messages, msg: "SecurityRequirement", alias: "security_requirements"},
		"defaultInputModes":    {presence: required, kind: list, alias: "default_input_modes"},
		"defaultOutputModes":   {presence: required, kind: list, alias: "default_output_modes"},
		"skills":               {presence: required, kind: messages, msg: "AgentSkill"},
		"iconUrl":              {presence: optional, alias: "icon_url"},
	},
	"AgentInterface": {
		"url":             {presence: required},
		"protocolBinding": {presence: required, alias: "protocol_binding"},
		"tenant":          {},
		"protocolVersion": {presence: required, alias: "protocol_version"},
	},
	"AgentProvider": {
		"url":          {presence: required},
		"organization": {presence: required},
	},
	"AgentCapabilities": {
		"streaming":         {presence: optional},
		"pushNotifications": {presence: optional, alias: "push_notifications"},
		"extensions":        {kind: messages, msg: "AgentExtension"},
		"extendedAgentCard": {presence: optional, alias: "extended_agent_card"},
	},
	"AgentExtension": {
		"uri":         {},
		"description": {},
		"required":    {},
		"params":      {kind: structure},
	},
	"AgentSkill": {
		"id":                   {presence: required},
		"name":                 {presence: required},
		"description":          {presence: required},
		"tags":                 {presence: required, kind: list},
		"examples":             {kind: list},
		"inputModes":           {kind: list, alias: "input_modes"},
		"outputModes":          {kind: list, alias: "output_modes"},
		"securityRequirements": {kind: messages, msg: "SecurityRequirement", alias: "security_requirements"},
	},
	"SecurityRequirement": {
		"schemes": {kind: mapOf, msg: "StringList"},
	},
	"StringList": {
		"list": {kind: list},
	},
	"SecurityScheme": {
		"apiKeySecurityScheme":        {kind: message, msg: "APIKeySecurityScheme", alias: "api_key_security_scheme"},
		"httpAuthSecurityScheme":      {kind: message, msg: "HTTPAuthSecurityScheme", alias: "http_auth_security_scheme"},
		"oauth2SecurityScheme":        {kind: message, msg: "OAuth2SecurityScheme", alias: "oauth2_security_scheme"},
		"openIdConnectSecurityScheme": {kind: message, msg: "OpenIdConnectSecurityScheme", alias: "open_id_connect_security_scheme"},
		"mtlsSecurityScheme":          {kind: message, msg: "MutualTlsSecurityScheme", alias: "mtls_security_scheme"},
	},
	"APIKeySecurityScheme": {
		"description": {},
		"location":    {presence: required},
		"name":        {presence: required},
	},
	"HTTPAuthSecurityScheme": {
		"description":  {},
		"scheme":       {presence: required},
		"bearerFormat": {alias: "bearer_format"},
	},
	"OAuth2SecurityScheme": {
		"description":       {},
		"flows":             {presence: required, kind: message, msg: "OAuthFlows"},
		"oauth2MetadataUrl": {alias: "oauth2_metadata_url"},
	},
	"OpenIdConnectSecurityScheme": {
		"description":      {},
		"openIdConnectUrl": {presence: required, alias: "open_id_connect_url"},
	},
	"MutualTlsSecurityScheme": {
		"description": {},
	},
	"OAuthFlows": {
		"authorizationCode": {kind: message, msg: "AuthorizationCodeOAuthFlow", alias: "authorization_code"},
		"clientCredentials": {kind: message, msg: "ClientCredentialsOAuthFlow", alias: "client_credentials"},
		"implicit":          {kind: message, msg: "ImplicitOAuthFlow"},
		"password":          {kind: message, msg: "PasswordOAuthFlow"},
		"deviceCode":        {kind: message, msg: "DeviceCodeOAuthFlow", alias: "device_code"},
	},
	"AuthorizationCodeOAuthFlow": {
		"authorizationUrl": {presence: required, alias: "authorization_url"},
		"tokenUrl":         {presence: required, alias: "token_url"},
		"refreshUrl":       {alias: "refresh_url"},
		"scopes":           {presence: required, kind: scalarMap},
		"pkceRequired":     {alias: "pkce_required"},
	},
	"ClientCredentialsOAuthFlow": {
		"tokenUrl":   {presence: required, alias: "token_url"},
		"refreshUrl": {alias: "refresh_url"},
		"scopes":     {presence: required, kind: scalarMap},
	},
	"ImplicitOAuthFlow": { // deprecated: nothing REQUIRED
		"authorizationUrl": {alias: "authorization_url"},
		"refreshUrl":       {alias: "refresh_url"},
		"scopes":           {kind: scalarMap},
	},
	"PasswordOAuthFlow": { // deprecated: nothing REQUIRED
		"tokenUrl":   {alias: "token_url"},
		"refreshUrl": {alias: "refresh_url"},
		"scopes":     {kind: scalarMap},
	},
	"DeviceCodeOAuthFlow": {
		"deviceAuthorizationUrl": {presence: required, alias: "device_authorization_url"},
		"tokenUrl":               {presence: required, alias: "token_url"},
		"refreshUrl":             {alias: "refresh_url"},
		"scopes":                 {presence: required, kind: scalarMap},
	},
}
