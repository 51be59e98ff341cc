package gl

// The enums the renderer uses: the values of the OpenGL headers, which
// WebGL2 shares.
const (
	NO_ERROR                      = 0
	FALSE                         = 0
	ONE                           = 1
	TRIANGLES                     = 0x0004
	TRIANGLE_STRIP                = 0x0005
	DST_COLOR                     = 0x0306
	ONE_MINUS_SRC_COLOR           = 0x0301
	ONE_MINUS_SRC_ALPHA           = 0x0303
	BACK                          = 0x0405
	INVALID_ENUM                  = 0x0500
	INVALID_VALUE                 = 0x0501
	INVALID_OPERATION             = 0x0502
	OUT_OF_MEMORY                 = 0x0505
	INVALID_FRAMEBUFFER_OPERATION = 0x0506
	CULL_FACE                     = 0x0B44
	DEPTH_TEST                    = 0x0B71
	VIEWPORT                      = 0x0BA2
	BLEND                         = 0x0BE2
	SCISSOR_TEST                  = 0x0C11
	UNPACK_ROW_LENGTH             = 0x0CF2
	UNPACK_ALIGNMENT              = 0x0CF5
	PACK_ROW_LENGTH               = 0x0D02
	PACK_ALIGNMENT                = 0x0D05
	MAX_TEXTURE_SIZE              = 0x0D33
	TEXTURE_2D                    = 0x0DE1
	UNSIGNED_BYTE                 = 0x1401
	UNSIGNED_INT                  = 0x1405
	FLOAT                         = 0x1406
	RGBA                          = 0x1908
	NEAREST                       = 0x2600
	LINEAR                        = 0x2601
	TEXTURE_MAG_FILTER            = 0x2800
	TEXTURE_MIN_FILTER            = 0x2801
	TEXTURE_WRAP_S                = 0x2802
	TEXTURE_WRAP_T                = 0x2803
	REPEAT                        = 0x2901
	CLAMP_TO_EDGE                 = 0x812F
	RGBA8                         = 0x8058
	MAJOR_VERSION                 = 0x821B // desktop only: WebGL2 has no such parameter
	MINOR_VERSION                 = 0x821C // desktop only
	TEXTURE0                      = 0x84C0
	ARRAY_BUFFER                  = 0x8892
	ELEMENT_ARRAY_BUFFER          = 0x8893
	STREAM_DRAW                   = 0x88E0
	STATIC_DRAW                   = 0x88E4
	RENDERER                      = 0x1F01
	FRAGMENT_SHADER               = 0x8B30
	VERTEX_SHADER                 = 0x8B31
	COMPILE_STATUS                = 0x8B81
	LINK_STATUS                   = 0x8B82
	FRAMEBUFFER_COMPLETE          = 0x8CD5
	COLOR_ATTACHMENT0             = 0x8CE0
	FRAMEBUFFER                   = 0x8D40
	COLOR_BUFFER_BIT              = 0x00004000
)
